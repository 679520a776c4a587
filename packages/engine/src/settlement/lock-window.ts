/**
 * How long a match's locks must last, and whether the venue should match at all right now, from
 * the prover's backlog. A match's proof is made after the proofs queued ahead of it, so with a
 * fixed lock a burst of matches outlasts its locks (`lock_expired`) and its orders are lost. Two
 * answers keep every match's proof inside its locks:
 * - `lockSlotsFor(n)`: the base window, stretched to twice the expected time to prove the backlog
 *   plus these n matches (never past the ledger's 4,500-slot ceiling);
 * - `acceptsMatches()`: false while the backlog alone would take over half the base window, so the
 *   market engines skip their auctions (orders keep resting, cancellable) until it drains.
 * Both are estimates from two measured rates: prover time per proof (from completions, so it is
 * the prover's throughput with its queue, whatever its worker count) and wall time per slot.
 */
import { DEFAULT_SLOT_MS } from '@nightjar/ledger';
import { LOCK_TTL_CEILING_SLOTS } from '@nightjar/protocol';

/** Slots a matched order's note stays locked for settlement when the prover keeps up. */
export const SETTLEMENT_LOCK_SLOTS = 150n;
/** Kept between a lock's expiry and the ledger's ceiling (the lock lands a slot or two later). */
const CEILING_MARGIN_SLOTS = 10n;
/** The base window's share that covers locking, path waits, verifying and settling. */
const BASE_OVERHEAD_SLOTS = 30n;
const EWMA = 0.2;
/**
 * Assumed prover time per proof until one is measured, in slots: 20 s at 400 ms a slot, the
 * slowest seen here (a first VALID_MATCH proof with its key load on a busy two-core machine), so
 * a burst right after a start is covered. In slots, not ms, so that a hand-stepped test clock
 * does not turn it into thousands of slots.
 */
const PRIOR_SLOTS_PER_PROOF = 50n;

/** One proof's passage through the window. */
export interface ProofTicket {
  handedAt: number | undefined;
}

export interface SlotSource {
  readonly slot: number;
  onSlot(listener: (slot: number) => void): () => void;
}

export class LockWindow {
  #msPerProof = 0;
  #proofsMeasured = false;
  #msPerSlot = DEFAULT_SLOT_MS;
  #queued = 0;
  #lastDone = 0;
  #lastSlot: number;
  #lastSlotAt: number;
  readonly #stop: () => void;

  constructor(
    chain: SlotSource,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#lastSlot = chain.slot;
    this.#lastSlotAt = now();
    this.#stop = chain.onSlot((slot) => this.#slotSeen(slot));
  }

  /** A match's proof was started (it may wait for its inputs' paths before the prover has it). */
  proofQueued(): ProofTicket {
    this.#queued += 1;
    return { handedAt: undefined };
  }

  /** The prover has it now. */
  proofHanded(ticket: ProofTicket): void {
    ticket.handedAt = this.now();
  }

  /** That proof ended: made, failed or dropped. */
  proofEnded(ticket: ProofTicket, made: boolean): void {
    this.#queued -= 1;
    if (!made || ticket.handedAt === undefined) return;
    const t = this.now();
    // Service time: from when this proof could first have had the prover (handed to it, or the
    // previous completion, whichever is later), so queueing behind others is not counted.
    const sample = t - Math.max(ticket.handedAt, this.#lastDone);
    this.#msPerProof = this.#proofsMeasured ? ewma(this.#msPerProof, sample) : sample;
    this.#proofsMeasured = true;
    this.#lastDone = t;
  }

  /** Slots the prover needs for the proofs started and not ended, plus `extra` more. */
  backlogSlots(extra = 0): bigint {
    const proofs = this.#queued + extra;
    if (!this.#proofsMeasured) return BigInt(proofs) * PRIOR_SLOTS_PER_PROOF;
    return BigInt(Math.ceil((proofs * this.#msPerProof) / this.#msPerSlot));
  }

  acceptsMatches(): boolean {
    return this.backlogSlots() * 2n <= SETTLEMENT_LOCK_SLOTS;
  }

  lockSlotsFor(matches: number): bigint {
    const needed = BASE_OVERHEAD_SLOTS + 2n * this.backlogSlots(matches);
    const slots = needed > SETTLEMENT_LOCK_SLOTS ? needed : SETTLEMENT_LOCK_SLOTS;
    const ceiling = LOCK_TTL_CEILING_SLOTS - CEILING_MARGIN_SLOTS;
    return slots < ceiling ? slots : ceiling;
  }

  /** Proofs started and not ended (for logs). */
  get queued(): number {
    return this.#queued;
  }

  close(): void {
    this.#stop();
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

function ewma(prev: number, sample: number): number {
  return prev + EWMA * (sample - prev);
}
