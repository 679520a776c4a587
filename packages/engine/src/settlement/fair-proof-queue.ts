/**
 * The order in which matches get the prover: one lane per market, served round-robin, first in
 * first out within a lane, `concurrency` proofs at a time. With one queue for every market, one
 * trader's burst in one market put every other market's matches behind it (their locks stretched
 * to cover it, and their auctions paused while it drained); with a lane each, a market's next
 * proof waits for at most one proof of each other market per proof of its own. The prover behind
 * it is any `MatchProver`: this queue decides only when each is handed over.
 */

/** Starts one waiting task. */
type Waiting = () => void;

export class FairProofQueue {
  /** Waiting work by lane; a lane is here only while it has some. */
  readonly #lanes = new Map<string, Waiting[]>();
  /** Lanes with waiting work, in the order they are served next. */
  readonly #turns: string[] = [];
  #running = 0;

  constructor(readonly concurrency = 1) {
    if (!Number.isSafeInteger(concurrency) || concurrency < 1)
      throw new RangeError('concurrency must be a positive integer');
  }

  /** Runs `task` on `lane`'s turn; an abort while it waits rejects at once and frees its place. */
  run<T>(lane: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.#drop(lane, w);
        reject(signal!.reason);
      };
      const w: Waiting = () => {
        signal?.removeEventListener('abort', onAbort);
        this.#running++;
        // The slot is free again before the caller hears: the next lane's work starts at once.
        const done = () => {
          this.#running--;
          this.#pump();
        };
        new Promise<T>((r) => r(task())).then(
          (v) => {
            done();
            resolve(v);
          },
          (err: unknown) => {
            done();
            reject(err);
          },
        );
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.#lanes.get(lane);
      if (queue) queue.push(w);
      else {
        this.#lanes.set(lane, [w]);
        this.#turns.push(lane);
      }
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#running < this.concurrency && this.#turns.length > 0) {
      const lane = this.#turns.shift()!;
      const queue = this.#lanes.get(lane)!;
      const w = queue.shift()!;
      if (queue.length > 0) this.#turns.push(lane);
      else this.#lanes.delete(lane);
      w();
    }
  }

  #drop(lane: string, w: Waiting): void {
    const queue = this.#lanes.get(lane);
    const i = queue?.indexOf(w) ?? -1;
    if (i < 0) return;
    queue!.splice(i, 1);
    if (queue!.length > 0) return;
    this.#lanes.delete(lane);
    this.#turns.splice(this.#turns.indexOf(lane), 1);
  }
}
