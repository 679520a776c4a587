/**
 * The prover seam: where a match's VALID_MATCH v2 proof and a change note's VALID_LOCK proof are
 * made. The witnesses are secret (amounts, owners, openings, terms), so whatever implements this
 * must be as trusted as the engine: worker threads here, or a prover on another machine that is
 * attested in its own right. The default runs the circuits package's NoteProver (snarkjs in
 * worker threads) behind a queue of its own, so a proof no longer wanted (its match was rejected)
 * is dropped before it costs a worker any time.
 */
import { availableParallelism } from 'node:os';
import {
  NoteProver,
  type LockProofResult,
  type MatchV2OutputWitness,
  type ValidLockParams,
  type ValidMatchV2Params,
} from '@nightjar/circuits';
import type { ValidMatchV2Public } from '@nightjar/crypto';

export interface MatchProof {
  /** 256 bytes (DESIGN.md section 3's proof layout). */
  proof: Uint8Array;
  publicInputs: ValidMatchV2Public;
  /** validMatchV2PublicSignals(publicInputs): what the ledger verifies the proof against. */
  publicSignals: bigint[];
  outputs: MatchV2OutputWitness[];
}

export interface MatchProver {
  /** Proves one match; rejects on `signal`'s abort (the proof may then never run at all). */
  prove(params: ValidMatchV2Params, signal?: AbortSignal): Promise<MatchProof>;
  /** Proves VALID_LOCK for a change note the engine's settlement created (its remainder's terms). */
  proveLock(params: ValidLockParams, signal?: AbortSignal): Promise<LockProofResult>;
  close(): Promise<void>;
  /**
   * Readies both circuits' keys in every worker so that no match's proof pays for them (the boot
   * awaits it before the first auction); answers one proof's time as measured while warming, in
   * ms, or undefined. Optional: a prover without it is used cold.
   */
  warm?(): Promise<number | undefined>;
}

/** Checks a VALID_MATCH proof against its public signals (circuit order), off the event loop. */
export interface MatchVerifier {
  verify(proof: Uint8Array, publicSignals: bigint[]): Promise<boolean>;
  close?(): Promise<void>;
}

/**
 * The default prover configuration: one single-threaded worker per core. Measured here (2 cores,
 * VALID_MATCH v2, 8 proofs at once, two runs): 2.42 and 2.54 proofs/s with two single-threaded
 * workers against 2.14 and 2.27
 * with one worker spreading each proof over both cores; throughput is what settlement needs, the
 * latency of one proof matters less once proofs run side by side.
 */
export function defaultProverConfig(): { workers: number; singleThread: boolean } {
  const cores = Math.max(1, availableParallelism());
  return cores > 1 ? { workers: cores, singleThread: true } : { workers: 1, singleThread: false };
}

export interface NoteMatchProverOptions {
  /** Proofs run at once (default: one per core, see defaultProverConfig). */
  workers?: number;
  /** true: each worker proves on one core (the default with several workers). */
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
  run(): Promise<unknown>;
  resolve(p: unknown): void;
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
    const defaults = defaultProverConfig();
    this.#concurrency = options.workers ?? defaults.workers;
    this.#maxQueue = options.maxQueue ?? 256;
    this.#owned = options.prover === undefined;
    this.#prover =
      options.prover ??
      new NoteProver({
        workers: this.#concurrency,
        // The NoteProver's own queue never fills: this one holds the waiting proofs.
        maxQueue: this.#concurrency,
        singleThread:
          options.singleThread ??
          (options.workers === undefined ? defaults.singleThread : this.#concurrency > 1),
      });
  }

  /** Proofs run at once. */
  get concurrency(): number {
    return this.#concurrency;
  }

  /** Proofs waiting for a worker (for metrics). */
  get queued(): number {
    return this.#queue.length;
  }

  prove(params: ValidMatchV2Params, signal?: AbortSignal): Promise<MatchProof> {
    return this.#enqueue(async () => {
      const r = await this.#prover.proveValidMatchV2(params);
      return {
        proof: r.proof,
        publicInputs: r.publicInputs,
        publicSignals: r.publicSignals,
        outputs: r.outputs,
      };
    }, signal);
  }

  proveLock(params: ValidLockParams, signal?: AbortSignal): Promise<LockProofResult> {
    return this.#enqueue(() => this.#prover.proveValidLock(params), signal);
  }

  warm(): Promise<number | undefined> {
    if (this.#closed) return Promise.reject(new MatchProverClosedError());
    return this.#prover.warm(['valid_match_v2', 'valid_lock']);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const w of this.#queue.splice(0)) w.reject(new MatchProverClosedError());
    if (this.#owned) await this.#prover.close();
  }

  #enqueue<T>(run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.#closed) return Promise.reject(new MatchProverClosedError());
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#queue.length >= this.#maxQueue) return Promise.reject(new MatchProverBusyError(this.#maxQueue));
    return new Promise<T>((resolve, reject) => {
      const w: Waiting = { run, resolve: resolve as (p: unknown) => void, reject };
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

  #pump(): void {
    while (!this.#closed && this.#running < this.#concurrency && this.#queue.length > 0) {
      const w = this.#queue.shift()!;
      this.#running++;
      // The worker is free again before the caller hears: the next proof starts at once.
      const next = () => {
        this.#running--;
        this.#pump();
      };
      w.run().then(
        (r) => {
          next();
          w.resolve(r);
        },
        (err: unknown) => {
          next();
          w.reject(err);
        },
      );
    }
  }
}
