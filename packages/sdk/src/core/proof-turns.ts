/**
 * Proofs wait here for a free worker of their prover, in arrival order, instead of in the
 * prover's own queue: what a proof binds that ages (an order's `expiry_slot`, its Merkle root) is
 * read when its turn comes, so time spent waiting behind other proofs is not taken from it.
 */
import { innerProver, type Prover } from './prover.js';

/** The proofs running on one prover and those waiting for it (shared by every client using it). */
class ProofTurns {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly capacity: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running < this.capacity) this.#running++;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      // A waiting proof takes this one's place; else the place is free.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

const turnsOf = new WeakMap<Prover, ProofTurns>();

/**
 * Runs `work` (which proves once with `prover`) when `prover` has a free worker: reads of the
 * clock inside `work` are current when its proof starts. Clients sharing a prover share its turns.
 */
export function proveInTurn<T>(prover: Prover, work: () => Promise<T>): Promise<T> {
  const inner = innerProver(prover);
  let turns = turnsOf.get(inner);
  if (!turns) {
    turns = new ProofTurns(Math.max(1, Math.floor(inner.workers ?? 1)));
    turnsOf.set(inner, turns);
  }
  return turns.run(work);
}
