/**
 * The demo's pace, from how long the machine's recent proofs took: a busy machine proves slowly,
 * so each round quotes fewer levels and gives its orders a lifetime that outlasts their proofs.
 * `TimedProver` measures proofs from when a worker takes them (the SDK queues the rest itself).
 */
import { SETTLEMENT_BUFFER_SLOTS } from '@nightjar/protocol';
import type { Prover } from '@nightjar/sdk';
import { QUOTING } from './quote-plan.js';

/** Proofs the average is taken over. */
const RECENT = 8;
/** Proving time a trader's round may take (its levels share it), and the venue's slot. */
const ROUND_PROOF_BUDGET_MS = 6_000;
const SLOT_MS = 400;

/** A prover that remembers how long its recent proofs took. */
export class TimedProver implements Prover {
  readonly #durations: number[] = [];
  constructor(readonly inner: Prover & { readonly workers?: number }) {}

  get workers(): number | undefined {
    return this.inner.workers;
  }

  /** Average of the recent proofs in ms; undefined before the first one is done. */
  recentMs(): number | undefined {
    const d = this.#durations;
    return d.length === 0 ? undefined : d.reduce((s, x) => s + x, 0) / d.length;
  }

  async #timed<T>(work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const r = await work();
    this.#durations.push(performance.now() - started);
    if (this.#durations.length > RECENT) this.#durations.shift();
    return r;
  }

  proveValidInputV2: Prover['proveValidInputV2'] = (req) =>
    this.#timed(() => this.inner.proveValidInputV2(req));
  proveValidSpendV2: Prover['proveValidSpendV2'] = (req) =>
    this.#timed(() => this.inner.proveValidSpendV2(req));
  proveValidJoinSplit: Prover['proveValidJoinSplit'] = (req) =>
    this.#timed(() => this.inner.proveValidJoinSplit(req));
  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * Orders a round places at most: as many as the round's proof budget covers at the recent proof
 * time, 1 to `QUOTING.levelsPerRound`; 2 before any proof was timed.
 */
export function levelsFor(proofMs: number | undefined): number {
  if (proofMs === undefined) return 2;
  const fit = Math.floor(ROUND_PROOF_BUDGET_MS / Math.max(1, proofMs));
  return Math.max(1, Math.min(QUOTING.levelsPerRound, fit));
}

/**
 * An order's lifetime in seconds: `QUOTING.expirySeconds`, or more when proofs are slow, so that
 * after its own proof (twice the recent time, for a margin) and the settlement buffer it still
 * rests 20 s. Its expiry is read when its proof starts, so waiting for the prover costs it nothing.
 */
export function lifetimeSeconds(proofMs: number | undefined): number {
  const bufferS = (Number(SETTLEMENT_BUFFER_SLOTS) * SLOT_MS) / 1000;
  const coverS = Math.ceil(bufferS + (2 * (proofMs ?? 0)) / 1000 + 20);
  return Math.min(QUOTING.maxExpirySeconds, Math.max(QUOTING.expirySeconds, coverS));
}
