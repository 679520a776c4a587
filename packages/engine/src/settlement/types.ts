/**
 * The settlement pipeline's vocabulary: the order view it reads (`SettleableOrder`), the batch it is
 * handed and the seam it is handed through (`SettlementSeam`), a match's plan
 * (everything the ledger transactions and the order effects need, computed once at match time and
 * journaled), its stage, outcome and reason, and the `OrderEffects` it calls. Orders implement
 * these; settlement imports nothing from `orders/`.
 */
import type { SettlementOutcome, SettlementStage, SettlementStatusResponse } from '@nightjar/protocol';
import type { MatchOutputSlot } from '@nightjar/crypto';
import type { BookOrder, Match } from '../book/types.js';

export type { SettlementOutcome, SettlementStage };

/**
 * Why a match was rejected: a closed set, so no ledger or RPC error text ever reaches a client.
 * `engine_restarted`: the engine stopped before both inputs were locked; nothing was consumed.
 */
export const REJECT_REASONS = [
  'input_root_expired',
  'note_spent',
  'note_locked',
  'lock_rejected',
  'settlement_rejected',
  'ledger_unavailable',
  'lock_expired',
  'engine_restarted',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** What settlement reads of a matched order: the book's fields plus its note and lock. */
export interface SettleableOrder extends BookOrder {
  /** Cumulative filled quantity so far. */
  filledQuantity: bigint;
  noteCommitment: string;
  noteInnerHash: string;
  nullifier: string;
  treeId: number;
  viewingPubkey: string;
  /**
   * The order's lock entry (contract B.1): the root its lock proof names, the note's use tag for
   * this order (hex, bound to the order's terms) and the proof. For an order's first note: the
   * client's VALID_INPUT proof from intake. For a partially filled order's change note: '' and ''
   * until the engine's VALID_LOCK proof is made (`ChangeLocks`); the use tag is known at once.
   */
  merkleRoot: string;
  validInputProof: string;
  /**
   * The note's use tag for this order (64 hex): Poseidon(8, commitment, inner, order digest),
   * recomputed at intake and verified with `validInputProof`; with `treeId`, `merkleRoot`,
   * `nullifier` and the proof it is the order's lock entry.
   */
  useTag: string;
  /** 'change' once the order rests on its change note (default 'client'). */
  lockSource?: LockSource;
}

/** A tick's matches of one market, as the market engine hands them to settlement. */
export interface SettlementBatch {
  /** Local to this boot (`/settlement/status/{batch_id}`). */
  batchId: bigint;
  marketId: string;
  symbol: string;
  matches: Match<SettleableOrder>[];
  /**
   * Slot until which the inputs will be locked on chain: the settlement's own window (from the
   * prover's backlog), never derived from an order's expiry.
   */
  lockExpirySlot: bigint;
  createdAtMs: number;
}

/**
 * What an auction asks of settlement before it matches (reads only): whether it may match now,
 * how long the new matches' locks must last, and each account's matches still waiting for proofs.
 */
export interface SettlementWindow {
  /** False while settlement cannot take more of this market's matches in time (it skips its auctions). */
  acceptsMatches(marketId: string): boolean;
  /** Slots the locks of `matches` new matches of this market must last for their proofs to be made in time. */
  lockSlotsFor(marketId: string, matches: number): bigint;
  /**
   * The account's matches still waiting for their proofs; past `MAX_QUEUED_MATCHES_PER_ACCOUNT` its
   * orders are not matched (they wait in the book).
   */
  queuedMatchesOf(accountId: string): number;
}

/**
 * Where matches leave the matcher: the pipeline implements it (a test double may, in tests only).
 * Every method is required: a stand-in says what it has (nothing in flight, no status) itself.
 */
export interface SettlementSeam extends SettlementWindow {
  readonly state: 'wired' | 'degraded';
  submit(batch: SettlementBatch): void;
  /** Batches not yet settled (bounded telemetry; no order details). */
  pendingBatches(): number;
  /** Matches not yet done or failed. */
  inFlightMatches(): number;
  /** The status record of a batch in flight or among the last 1,024 terminal ones. */
  status(batchId: bigint): SettlementStatusResponse | undefined;
  /** `/admin/metrics/settlement` (no amounts, prices or ids). */
  metricsSnapshot(): Record<string, unknown>;
  /** Settlement totals for `/transparency`. */
  totals(): { batches: number; confirmed_matches: number; rejected_matches: number };
}

/**
 * A `lock_notes` entry as the ledger takes it (contract B.1; u64 as decimal strings): the shard,
 * a root it had, the nullifier, the use tag, the expiry and the lock proof (VALID_INPUT v2 or
 * VALID_LOCK, 512 hex). Nothing links it to the note's deposit (DESIGN.md section 6).
 */
export interface LockArgs {
  tree_id: number;
  merkle_root: string;
  nullifier: string;
  use_tag: string;
  until_slot: string;
  proof: string;
}

/**
 * Where a party's lock proof comes from: the order's intake proof (`client`), or the VALID_LOCK
 * proof the engine makes for a partially filled order's change note (`change`), which may still
 * be in progress when the match is planned (the lock phase awaits it).
 */
export type LockSource = 'client' | 'change';

/** An order's terms as its digest binds them (DESIGN 3), with the amount left; u64 as decimal. */
export interface PlannedTerms {
  amount: string;
  priceLimit: string;
  minFillSize: string;
  expirySlot: string;
}

export interface OutputPlan {
  role: 1 | 2 | 3;
  /** Its VALID_MATCH output slot (`MATCH_OUTPUT_SLOTS`): how `settle_batch` names it. */
  slot: MatchOutputSlot;
  tree_id: number;
  mint: string;
  amount: string;
  opening_hash: string;
  /** Poseidon(4, parent_inner, role), or for the change Poseidon(4, parent_inner, 2, remainder digest), hex. */
  inner: string;
  /** The output's note commitment, hex (a change note's is what the order's note becomes). */
  commitment: string;
  /** The output's nullifier, hex (a continuing order's change note is locked by it next). */
  nullifier: string;
}

/**
 * The input note as VALID_MATCH's witness needs it (private: never sent to the ledger). Journaled
 * with the plan, as the lock's commitment was before.
 */
export interface InputNote {
  commitment: string;
  amount: string;
  ownerCommitment: string;
  innerHash: string;
}

export interface PartyPlan {
  orderId: string;
  accountId: string;
  side: 'bid' | 'ask';
  treeId: number;
  viewingPubkey: string;
  inputNullifier: string;
  input: InputNote;
  /**
   * The input's lock entry. `merkle_root` and `proof` are '' for a change note whose VALID_LOCK
   * proof was still being made at plan time (`lockSource` 'change'): the lock phase fills them in.
   */
  lock: LockArgs;
  lockSource: LockSource;
  /** The slot this input's lock holds until (the batch's settlement window). */
  lockUntilSlot: string;
  /** The order's terms with the amount left before this fill (its use tag binds them). */
  terms: PlannedTerms;
  /** All three outputs in slot order (trade-out, change, fee), zero-value ones included. */
  outputs: OutputPlan[];
  tradeAmount: string;
  changeAmount: string;
  feeAmount: string;
  /**
   * Base units left unfilled after the fill: they rest again when `continues`, else they leave
   * with the order (`cancelled`); "0" when it filled in full. (Journal rows written before this
   * field meant the remainder only of a continuing order hold "0" for an ending one.)
   */
  newAmount: string;
  /** Cumulative filled quantity after the fill. */
  filledAfter: string;
  /**
   * True when the remainder rests again on its change note (not locked on chain: the engine keeps
   * it reserved and locks it at the next match with VALID_LOCK).
   */
  continues: boolean;
}

export interface MatchPlan {
  matchIdx: number;
  matchId: string;
  quantity: string;
  /** The clearing price (quote units per `price_scale` base units). */
  price: string;
  /** The last slot the settlement may land in (VALID_MATCH binds it; both orders expire after it). */
  settleBySlot: string;
  bid: PartyPlan;
  ask: PartyPlan;
}

export interface JobState {
  batchId: bigint;
  marketId: string;
  plan: MatchPlan;
  stage: SettlementStage;
  outcome: SettlementOutcome;
  reason?: RejectReason | 'indeterminate';
  createdAtMs: number;
  updatedAtMs: number;
  lockSignatures: string[];
  settleSignatures: string[];
  /** The lock transaction that landed for this match's inputs. */
  confirmedLockSignature?: string;
  /** Confirmed settle transaction. */
  confirmedSignature?: string;
  /**
   * Hex memos for [bid party, ask party], as stored on the ledger: encrypted at plan time, before
   * proving (VALID_MATCH binds their hash), and journaled with the plan.
   */
  memos?: [string, string];
  /**
   * The match's VALID_MATCH v2 proof (hex): journaled once proven, so a restart can settle it again
   * (with the journaled memos and plan) without proving again.
   */
  proof?: MatchProofRecord;
  /**
   * The locks this engine may still hold for a failed match (its orders are gone): journaled with
   * the failure, each dropped once its `release_lock` was decided, so a restart in between still
   * releases them.
   */
  releasesOwed?: OwedRelease[];
}

export interface OwedRelease {
  nullifier: string;
  /** The lock's end: a lock past it binds nothing and needs no release. */
  untilSlot: string;
}

export interface MatchProofRecord {
  proof: string;
}

export const TERMINAL_STAGES: ReadonlySet<SettlementStage> = new Set(['done', 'failed']);

/** What settlement does to orders; `orders/settlement-effects.ts` implements it over the markets. */
export interface OrderEffects {
  /** Both parties' fills (memos published, orders filled). */
  confirmed(job: JobState): void;
  /**
   * A definitive failure of one party's order (terminal `settlement_failed`). `ownLockRefused`:
   * the ledger refused this party's own lock, so `reason` speaks of its note (spent, locked).
   */
  rejected(job: JobState, party: 'bid' | 'ask', reason: RejectReason, ownLockRefused?: boolean): void;
  /** The party's own lock held but its counterparty's failed: the order rests again (its lock is released). */
  returned(job: JobState, party: 'bid' | 'ask'): void;
}
