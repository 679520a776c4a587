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
  merkleRoot: string;
  validInputProof: string;
  /**
   * The note's use tag for this order (64 hex): Poseidon(8, commitment, inner, order digest),
   * recomputed at intake and verified with `validInputProof`; with `treeId`, `merkleRoot`,
   * `nullifier` and the proof it is the order's lock entry.
   */
  useTag: string;
  /**
   * Slot until which the note is locked to this order on the ledger (after a partial fill's relock,
   * or a lock that survived a counterparty's failed one): the next match reuses that lock.
   */
  lockedUntilSlot?: bigint;
}

/** A tick's matches of one market, as the market engine hands them to settlement. */
export interface SettlementBatch {
  /** Local to this boot (`/settlement/status/{batch_id}`). */
  batchId: bigint;
  marketId: string;
  symbol: string;
  matches: Match<SettleableOrder>[];
  /** Slot until which the inputs will be locked on chain. */
  lockExpirySlot: bigint;
  createdAtMs: number;
}

/**
 * Where matches leave the matcher: the pipeline implements it (a test double may, in tests only).
 */
export interface SettlementSeam {
  readonly state: 'wired' | 'degraded';
  submit(batch: SettlementBatch): void;
  /** Batches not yet settled (bounded telemetry; no order details). */
  pendingBatches(): number;
  /** Matches not yet done or failed. */
  inFlightMatches?(): number;
  /** The status record of a batch in flight or among the last 1,024 terminal ones. */
  status?(batchId: bigint): SettlementStatusResponse | undefined;
  /** `/admin/metrics/settlement` (no amounts, prices or ids). */
  metricsSnapshot?(): Record<string, unknown>;
  /**
   * The order holding this note's lock (the engine's own, until `untilSlot`) left the book
   * unmatched: free the note now rather than at the lock's expiry.
   */
  releaseLock?(nullifier: string, untilSlot: bigint): void;
  /** False while settlement cannot take more of this market's matches in time (it skips its auctions). */
  acceptsMatches?(marketId: string): boolean;
  /** Slots the locks of `matches` new matches of this market must last for their proofs to be made in time. */
  lockSlotsFor?(marketId: string, matches: number): bigint;
  /**
   * The account's matches still waiting for their proofs; past `MAX_QUEUED_MATCHES_PER_ACCOUNT` its
   * orders are not matched (they wait in the book).
   */
  queuedMatchesOf?(accountId: string): number;
  /** Settlement totals for `/transparency`. */
  totals?(): { batches: number; confirmed_matches: number; rejected_matches: number };
}

/**
 * `lock_notes` entry as the ledger takes it (u64 as decimal strings): the nullifier and the expiry
 * only, so a lock links nothing to the note's deposit (DESIGN.md section 6, private settlement).
 */
export interface LockArgs {
  nullifier: string;
  until_slot: string;
}

export interface OutputPlan {
  role: 1 | 2 | 3;
  /** Its VALID_MATCH output slot (`MATCH_OUTPUT_SLOTS`): how `settle_batch` names it. */
  slot: MatchOutputSlot;
  tree_id: number;
  mint: string;
  amount: string;
  opening_hash: string;
  /** Poseidon(4, parent_inner, role), hex. */
  inner: string;
  /** Only for a continuing order's change note: its nullifier and the lock's expiry. */
  relock?: { until_slot: string; nullifier: string };
  /** The output's note commitment, hex (a change note's is what the order's note becomes). */
  commitment: string;
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
  /** Present when the input must be locked by this batch; absent when it is already locked (relock). */
  lock?: LockArgs;
  /** The slot this input's lock holds until (the batch's, or the relock's). */
  lockUntilSlot: string;
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
  /** True when the remainder rests again with its change note re-locked. */
  continues: boolean;
}

export interface MatchPlan {
  matchIdx: number;
  matchId: string;
  quantity: string;
  /** The clearing price (quote units per `price_scale` base units). */
  price: string;
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
  /** Hex memos for [bid party, ask party], as stored on the ledger. */
  memos?: [string, string];
  /**
   * The match's VALID_MATCH proof (hex) and the input roots it was proven against [bid, ask], hex:
   * journaled once proven, so a restart can settle it again without proving again.
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
  roots: [string, string];
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
  /** The party's own lock held but its counterparty's failed: the order rests again. */
  returned(job: JobState, party: 'bid' | 'ask'): void;
}
