/**
 * How long a match's locks must last, and whether a market should match at all right now, from
 * the prover's backlog as that market sees it. A match's proof is made after the proofs queued
 * ahead of it, so with a fixed lock a burst of matches outlasts its locks (`lock_expired`) and its
 * orders are lost. The prover serves markets round-robin (fair-proof-queue.ts), so what is ahead
 * of a market's last new proof is its own queue plus, from each other market, at most as many
 * proofs as that (plus the ones the prover is running) (`aheadOf`): another market's backlog
 * never stretches this one's locks past that, nor pauses its auctions. Three answers keep every
 * match's proof inside its locks:
 * - `lockSlotsFor(market, n)`: the base window, stretched to twice the expected time to prove what
 *   is ahead of these n matches (never past the ledger's 4,500-slot ceiling);
 * - `acceptsMatches(market)`: false while the market's own queue would take over half the base
 *   window to prove, so that market skips its auctions (orders keep resting, cancellable) until
 *   it drains; other markets' queues do not count;
 * - `queuedFor(account)`: the account's matches whose proofs are not made yet, which the markets
 *   bound (`MAX_QUEUED_MATCHES_PER_ACCOUNT`): one account cannot fill a market's queue.
 * Times are estimates from two measured rates: prover time per proof (from completions, so it is
 * the prover's throughput with its queue, whatever its worker count; before the first, seeded from
 * a proof timed while the prover warmed at boot) and wall time per slot.
 */
import { DEFAULT_SLOT_MS } from '@nightjar/ledger';
import { LOCK_TTL_CEILING_SLOTS } from '@nightjar/protocol';

/** Slots a matched order's note stays locked for settlement when the prover keeps up. */
export const SETTLEMENT_LOCK_SLOTS = 150n;
/**
 * Matches one account may have waiting for their proofs, across markets; its orders wait in the
 * book (not matched) past it, so one account adds at most this many proofs to the backlog.
 */
export const MAX_QUEUED_MATCHES_PER_ACCOUNT = 4;
/** Kept between a lock's expiry and the ledger's ceiling (the lock lands a slot or two later). */
const CEILING_MARGIN_SLOTS = 10n;
/** The base window's share that covers locking (a change note's VALID_LOCK included), verifying and settling. */
const BASE_OVERHEAD_SLOTS = 30n;
const EWMA = 0.2;
/**
 * Assumed prover time per proof until one is measured or seeded, in slots: 20 s at 400 ms a slot,
 * the slowest seen here (a first VALID_MATCH proof with its key load on a busy two-core machine).
 * Only a prover that times nothing while warming leaves it in place. In slots, not ms, so that a
 * hand-stepped test clock does not turn it into thousands of slots.
 */
const PRIOR_SLOTS_PER_PROOF = 50n;
/**
 * A warm-up proof is timed without its witness calculation (its witness is made up) and before
 * the machine's load may have grown: the seed counts it this many times over.
 */
export const SEED_MARGIN = 2;

/** One proof's passage through the window. */
export interface ProofTicket {
  marketId: string;
  /** The match's accounts (one entry when both sides are the same account). */
  accounts: string[];
  handedAt: number | undefined;
}

export interface SlotSource {
  readonly slot: number;
  onSlot(listener: (slot: number) => void): () => void;
}

export class LockWindow {
  #msPerProof = 0;
  #proofsMeasured = false;
  #seeded = false;
  #msPerSlot = DEFAULT_SLOT_MS;
  #queued = 0;
  readonly #byMarket = new Map<string, number>();
  readonly #byAccount = new Map<string, number>();
  #lastDone = 0;
  #lastSlot: number;
  #lastSlotAt: number;
  readonly #stop: () => void;

  /** `concurrency`: proofs the prover runs at once (another market may have that many running). */
  constructor(
    chain: SlotSource,
    private readonly now: () => number = () => performance.now(),
    private readonly concurrency = 1,
  ) {
    this.#lastSlot = chain.slot;
    this.#lastSlotAt = now();
    this.#stop = chain.onSlot((slot) => this.#slotSeen(slot));
  }

  /** A match's proof was started (it may wait for its inputs' paths before the prover has it). */
  proofQueued(marketId: string, accounts: readonly string[]): ProofTicket {
    const ticket = { marketId, accounts: [...new Set(accounts)], handedAt: undefined };
    this.#count(ticket, 1);
    return ticket;
  }

  /** The prover has it now. */
  proofHanded(ticket: ProofTicket): void {
    ticket.handedAt = this.now();
  }

  /** That proof ended: made, failed or dropped. */
  proofEnded(ticket: ProofTicket, made: boolean): void {
    this.#count(ticket, -1);
    if (!made || ticket.handedAt === undefined) return;
    const t = this.now();
    // Service time: from when this proof could first have had the prover (handed to it, or the
    // previous completion, whichever is later), so queueing behind others is not counted.
    const sample = t - Math.max(ticket.handedAt, this.#lastDone);
    this.#msPerProof = this.#proofsMeasured ? ewma(this.#msPerProof, sample) : sample;
    this.#proofsMeasured = true;
    this.#lastDone = t;
  }

  /**
   * One proof's time measured while the prover warmed, on this machine at boot: the estimate
   * (times SEED_MARGIN) until the first real proof is measured, in place of the fixed prior.
   */
  seedProofTime(ms: number): void {
    if (this.#proofsMeasured || !(ms > 0)) return;
    this.#msPerProof = ms * SEED_MARGIN;
    this.#seeded = true;
  }

  /**
   * Proofs the prover makes up to the last of `extra` new matches of `marketId`, round-robin: the
   * market's own queue and new matches, and from each other market no more than that plus what
   * the prover may be running of it.
   */
  aheadOf(marketId: string, extra = 0): number {
    const own = (this.#byMarket.get(marketId) ?? 0) + extra;
    let ahead = own;
    for (const [m, n] of this.#byMarket) if (m !== marketId) ahead += Math.min(n, own + this.concurrency);
    return ahead;
  }

  /** Slots the prover needs for the proofs up to `extra` new matches of `marketId`. */
  backlogSlots(marketId: string, extra = 0): bigint {
    return this.#slotsFor(this.aheadOf(marketId, extra));
  }

  /** False while the market's own queue alone would take over half the base window. */
  acceptsMatches(marketId: string): boolean {
    return this.#slotsFor(this.#byMarket.get(marketId) ?? 0) * 2n <= SETTLEMENT_LOCK_SLOTS;
  }

  lockSlotsFor(marketId: string, matches: number): bigint {
    const needed = BASE_OVERHEAD_SLOTS + 2n * this.backlogSlots(marketId, matches);
    const slots = needed > SETTLEMENT_LOCK_SLOTS ? needed : SETTLEMENT_LOCK_SLOTS;
    const ceiling = LOCK_TTL_CEILING_SLOTS - CEILING_MARGIN_SLOTS;
    return slots < ceiling ? slots : ceiling;
  }

  /** Proofs started and not ended (for logs). */
  get queued(): number {
    return this.#queued;
  }

  /** The account's matches whose proofs are started and not ended. */
  queuedFor(accountId: string): number {
    return this.#byAccount.get(accountId) ?? 0;
  }

  close(): void {
    this.#stop();
  }

  #slotsFor(proofs: number): bigint {
    if (!this.#proofsMeasured && !this.#seeded) return BigInt(proofs) * PRIOR_SLOTS_PER_PROOF;
    return BigInt(Math.ceil((proofs * this.#msPerProof) / this.#msPerSlot));
  }

  #count(ticket: ProofTicket, delta: 1 | -1): void {
    this.#queued += delta;
    bump(this.#byMarket, ticket.marketId, delta);
    for (const a of ticket.accounts) bump(this.#byAccount, a, delta);
  }

  #slotSeen(slot: number): void {
    const t = this.now();
    if (slot > this.#lastSlot) {
      // At least 1 ms a slot: a hand-stepped test clock can pass many slots at once.
      const sample = Math.max(1, (t - this.#lastSlotAt) / (slot - this.#lastSlot));
      this.#msPerSlot = ewma(this.#msPerSlot, sample);
    }
    this.#lastSlot = slot;
    this.#lastSlotAt = t;
  }
}

/** Adds `delta` to `key`'s count, forgetting keys that reach 0 (the maps stay as small as the queue). */
function bump(counts: Map<string, number>, key: string, delta: number): void {
  const n = (counts.get(key) ?? 0) + delta;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

function ewma(prev: number, sample: number): number {
  return prev + EWMA * (sample - prev);
}
