/**
 * The prover seam: where a match's VALID_MATCH proof is made. The witness is secret (amounts,
 * owners, openings), so whatever implements this must be as trusted as the engine: worker threads
 * here, or a prover on another machine that is attested in its own right. The default runs the
 * circuits package's NoteProver (snarkjs in worker threads) behind a queue of its own, so a proof
 * no longer wanted (its match was rejected) is dropped before it costs a worker any time.
 */
import { NoteProver, type MatchOutputWitness, type ValidMatchParams } from '@nightjar/circuits';
import type { ValidMatchPublic } from '@nightjar/crypto';

export interface MatchProof {
  /** 256 bytes (DESIGN.md section 3's proof layout). */
  proof: Uint8Array;
  publicInputs: ValidMatchPublic;
  outputs: MatchOutputWitness[];
}

export interface MatchProver {
  /** Proves one match; rejects on `signal`'s abort (the proof may then never run at all). */
  prove(params: ValidMatchParams, signal?: AbortSignal): Promise<MatchProof>;
  close(): Promise<void>;
}

/** Checks a VALID_MATCH proof against its public signals (circuit order), off the event loop. */
export interface MatchVerifier {
  verify(proof: Uint8Array, publicSignals: bigint[]): Promise<boolean>;
  close?(): Promise<void>;
}

export interface NoteMatchProverOptions {
  /** Proofs run at once (default 1: one proof spread over every core has the lowest latency). */
  workers?: number;
  /** true: each worker proves on one core (several workers on a many-core machine). */
  singleThread?: boolean;
  /** Proofs that may wait; one more is refused with MatchProverBusyError (default 256). */
  maxQueue?: number;
  /** A NoteProver to use instead of starting one (not closed by `close`). */
  prover?: NoteProver;
}

export class MatchProverBusyError extends Error {
  override readonly name = 'MatchProverBusyError';
  constructor(maxQueue: number) {
    super(`match prover queue is full (${maxQueue} waiting)`);
  }
}

export class MatchProverClosedError extends Error {
  override readonly name = 'MatchProverClosedError';
  constructor() {
    super('match prover is closed');
  }
}

interface Waiting {
  params: ValidMatchParams;
  resolve(p: MatchProof): void;
  reject(err: unknown): void;
}

export class NoteMatchProver implements MatchProver {
  readonly #prover: NoteProver;
  readonly #owned: boolean;
  readonly #concurrency: number;
  readonly #maxQueue: number;
  readonly #queue: Waiting[] = [];
  #running = 0;
  #closed = false;

  constructor(options: NoteMatchProverOptions = {}) {
    this.#concurrency = options.workers ?? 1;
    this.#maxQueue = options.maxQueue ?? 256;
    this.#owned = options.prover === undefined;
    this.#prover =
      options.prover ??
      new NoteProver({
        workers: this.#concurrency,
        // The NoteProver's own queue never fills: this one holds the waiting proofs.
        maxQueue: this.#concurrency,
        ...(options.singleThread === undefined ? {} : { singleThread: options.singleThread }),
      });
  }

  /** Proofs waiting for a worker (for metrics). */
  get queued(): number {
    return this.#queue.length;
  }

  prove(params: ValidMatchParams, signal?: AbortSignal): Promise<MatchProof> {
    if (this.#closed) return Promise.reject(new MatchProverClosedError());
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#queue.length >= this.#maxQueue) return Promise.reject(new MatchProverBusyError(this.#maxQueue));
    return new Promise<MatchProof>((resolve, reject) => {
      const w: Waiting = { params, resolve, reject };
      // An aborted proof that is still waiting leaves the queue at once.
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.#queue.indexOf(w);
          if (i >= 0) this.#queue.splice(i, 1);
          reject(signal.reason);
        },
        { once: true },
      );
      this.#queue.push(w);
      this.#pump();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const w of this.#queue.splice(0)) w.reject(new MatchProverClosedError());
    if (this.#owned) await this.#prover.close();
  }

  #pump(): void {
    while (!this.#closed && this.#running < this.#concurrency && this.#queue.length > 0) {
      const w = this.#queue.shift()!;
      this.#running++;
      // The worker is free again before the caller hears: the next proof starts at once.
      const next = () => {
        this.#running--;
        this.#pump();
      };
      this.#prover.proveValidMatch(w.params).then(
        (r) => {
          next();
          w.resolve({ proof: r.proof, publicInputs: r.publicInputs, outputs: r.outputs });
        },
        (err: unknown) => {
          next();
          w.reject(err);
        },
      );
    }
  }
}
