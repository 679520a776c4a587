/**
 * Adaptive batching in front of the verifier pool.
 *
 * `verify(proof, publicInputs, keyId?)` resolves to true/false per proof. Requests go into a
 * bounded FIFO per key id; dispatch runs in a microtask after each submission and whenever a worker
 * becomes idle. When a worker is idle and nothing else is waiting, a request is sent at once as a
 * batch of one (the single-proof path). Under load, requests accumulate while the workers are busy
 * and each idle worker takes the oldest waiting requests of one key as a batch, up to
 * `maxBatchSize`, sharing the waiting requests evenly among the idle workers. When `maxQueue`
 * requests are already waiting, `verify` rejects with VerifierCapacityError (code
 * GROTH16_QUEUE_FULL) so the caller can answer "at capacity".
 */
import {
  PublicInputError,
  VerificationKeyError,
  VerifierCapacityError,
  VerifierClosedError,
  VerifierWorkerError,
  type Groth16Error,
} from './errors.js';
import {
  FIELD_ELEMENT_BYTES,
  SCALAR_FIELD_MODULUS,
  assertProofLength,
  assertPublicInputLength,
} from './proof-format.js';
import { VerifierPool, type RawProofItem, type VerifierPoolOptions } from './verifier-pool.js';

export interface AdaptiveBatcherOptions {
  /** Largest batch sent to one worker (default 64). */
  maxBatchSize?: number;
  /** Most requests waiting for a worker before `verify` rejects with GROTH16_QUEUE_FULL (default 4096). */
  maxQueue?: number;
  /** Key id used when `verify` is called without one (default: the first key of the pool). */
  defaultKeyId?: string;
}

export interface BatcherStats {
  /** Requests accepted (not counting those refused at capacity or rejected for shape). */
  submitted: number;
  /** Requests answered true or false. */
  completed: number;
  /** Requests refused because the queue was full. */
  refused: number;
  /** Jobs sent to workers, and how many of them held a single proof. */
  batches: number;
  singles: number;
  /** Largest batch sent so far. */
  largestBatch: number;
  /** Requests waiting for a worker now. */
  queued: number;
  /** Requests inside jobs that have not answered yet. */
  inFlight: number;
}

interface Request {
  seq: number;
  item: RawProofItem;
  resolve(ok: boolean): void;
  reject(err: Error): void;
}

class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(v: T): void {
    this.items.push(v);
  }
  peek(): T | undefined {
    return this.items[this.head];
  }
  take(n: number): T[] {
    const out = this.items.slice(this.head, this.head + n);
    this.head += out.length;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return out;
  }
  drain(): T[] {
    return this.take(this.length);
  }
}

export class AdaptiveBatcher {
  readonly pool: VerifierPool;
  readonly maxBatchSize: number;
  readonly maxQueue: number;
  readonly defaultKeyId: string;
  private readonly ownsPool: boolean;
  private readonly queues = new Map<string, Fifo<Request>>();
  private readonly inFlightJobs = new Set<Promise<void>>();
  private readonly unsubscribe: () => void;
  private queued = 0;
  private inFlight = 0;
  private seq = 0;
  private scheduled = false;
  private closed = false;
  private readonly counters = {
    submitted: 0,
    completed: 0,
    refused: 0,
    batches: 0,
    singles: 0,
    largestBatch: 0,
  };

  constructor(pool: VerifierPool, options: AdaptiveBatcherOptions = {}, ownsPool = false) {
    this.pool = pool;
    this.ownsPool = ownsPool;
    this.maxBatchSize = Math.max(1, Math.floor(options.maxBatchSize ?? 64));
    this.maxQueue = Math.max(0, Math.floor(options.maxQueue ?? 4096));
    const keyIds = pool.keyIds();
    const defaultKeyId = options.defaultKeyId ?? keyIds[0];
    if (defaultKeyId === undefined || !keyIds.includes(defaultKeyId)) {
      throw new VerificationKeyError('GROTH16_UNKNOWN_KEY', `unknown default key id ${String(defaultKeyId)}`);
    }
    this.defaultKeyId = defaultKeyId;
    for (const id of keyIds) this.queues.set(id, new Fifo<Request>());
    this.unsubscribe = pool.onIdle(() => this.schedule());
  }

  /** Starts a pool (see VerifierPoolOptions) owned by the batcher: `close()` also closes it. */
  static async create(options: VerifierPoolOptions & AdaptiveBatcherOptions): Promise<AdaptiveBatcher> {
    const pool = await VerifierPool.create(options);
    try {
      return new AdaptiveBatcher(pool, options, true);
    } catch (err) {
      await pool.close();
      throw err;
    }
  }

  /**
   * Verifies one proof. Resolves to false for any invalid proof (including coordinates >= p,
   * points off the curve or outside the subgroup, public inputs >= r). Rejects with typed errors:
   * GROTH16_QUEUE_FULL (at capacity), GROTH16_VERIFIER_CLOSED, GROTH16_UNKNOWN_KEY,
   * GROTH16_PROOF_LENGTH / GROTH16_PUBLIC_INPUT_LENGTH (shape), GROTH16_WORKER_FAILED.
   * The bytes are copied before this returns; the caller may reuse its buffers.
   */
  verify(
    proof: Uint8Array,
    publicInputs: Uint8Array | readonly bigint[],
    keyId: string = this.defaultKeyId,
  ): Promise<boolean> {
    if (this.closed) return Promise.reject(new VerifierClosedError());
    const queue = this.queues.get(keyId);
    if (queue === undefined) {
      return Promise.reject(
        new VerificationKeyError('GROTH16_UNKNOWN_KEY', `unknown verification key id ${keyId}`),
      );
    }
    let item: RawProofItem;
    try {
      const nPublic = this.pool.nPublic(keyId);
      assertProofLength(proof);
      const inputs = inputBytes(publicInputs, nPublic);
      if (inputs === undefined) return Promise.resolve(false);
      item = { proof: proof.slice(), publicInputs: inputs };
    } catch (err) {
      return Promise.reject(err as Groth16Error);
    }
    if (this.queued >= this.maxQueue) {
      this.counters.refused++;
      return Promise.reject(
        new VerifierCapacityError(`verification queue is full (${this.maxQueue} waiting)`),
      );
    }
    this.counters.submitted++;
    return new Promise<boolean>((resolve, reject) => {
      queue.push({ seq: this.seq++, item, resolve, reject });
      this.queued++;
      this.schedule();
    });
  }

  stats(): BatcherStats {
    return { ...this.counters, queued: this.queued, inFlight: this.inFlight };
  }

  /**
   * Stops accepting requests, rejects those still waiting with VerifierClosedError, waits for the
   * jobs already running, then (when the batcher owns the pool) terminates the workers.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.failQueued(new VerifierClosedError());
    await Promise.allSettled([...this.inFlightJobs]);
    if (this.ownsPool) await this.pool.close();
  }

  private failQueued(err: Error): void {
    for (const q of this.queues.values()) for (const r of q.drain()) r.reject(err);
    this.queued = 0;
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (!this.closed && this.queued > 0) {
      const idle = this.pool.idleWorkers;
      if (idle === 0) {
        if (this.pool.liveWorkers === 0)
          this.failQueued(new VerifierWorkerError('no live verification worker'));
        return;
      }
      // The key whose oldest request has waited longest.
      let keyId: string | undefined;
      let oldest = Infinity;
      for (const [id, q] of this.queues) {
        const head = q.peek();
        if (head !== undefined && head.seq < oldest) {
          oldest = head.seq;
          keyId = id;
        }
      }
      if (keyId === undefined) return;
      const queue = this.queues.get(keyId) as Fifo<Request>;
      const n = Math.min(this.maxBatchSize, Math.ceil(queue.length / idle));
      const batch = queue.take(n);
      this.queued -= batch.length;
      this.send(keyId, batch);
    }
  }

  private send(keyId: string, batch: Request[]): void {
    this.counters.batches++;
    if (batch.length === 1) this.counters.singles++;
    this.counters.largestBatch = Math.max(this.counters.largestBatch, batch.length);
    this.inFlight += batch.length;
    const job = this.pool
      .run(
        keyId,
        batch.map((r) => r.item),
      )
      .then(
        (results) => {
          batch.forEach((r, i) => r.resolve(results[i] === true));
          this.counters.completed += batch.length;
        },
        (err: Error) => {
          for (const r of batch) r.reject(err);
        },
      );
    const tracked = job.finally(() => {
      this.inFlight -= batch.length;
      this.inFlightJobs.delete(tracked);
    });
    this.inFlightJobs.add(tracked);
  }
}

/** Public inputs as bytes, checking the count; undefined when a bigint input is not below r. */
function inputBytes(publicInputs: Uint8Array | readonly bigint[], nPublic: number): Uint8Array | undefined {
  if (publicInputs instanceof Uint8Array) {
    assertPublicInputLength(publicInputs, nPublic);
    return publicInputs.slice();
  }
  if (!Array.isArray(publicInputs) || publicInputs.length !== nPublic) {
    throw new PublicInputError('GROTH16_PUBLIC_INPUT_LENGTH', `expected ${nPublic} public inputs`);
  }
  const out = new Uint8Array(nPublic * FIELD_ELEMENT_BYTES);
  for (let j = 0; j < nPublic; j++) {
    let v = publicInputs[j] as bigint;
    if (typeof v !== 'bigint' || v < 0n || v >= SCALAR_FIELD_MODULUS) return undefined;
    for (let k = 31; k >= 0; k--) {
      out[j * 32 + k] = Number(v & 0xffn);
      v >>= 8n;
    }
  }
  return out;
}
