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
import { FIELD_ELEMENT_BYTES, SCALAR_FIELD_MODULUS, assertProofLength } from './proof-format.js';
import { assertPublicInputLength } from './public-inputs.js';
import {
  decodeOrderResults,
  encodeOrderCheck,
  ORDER_CHECK_PUBLIC_INPUTS,
  ORDER_RECORD_BYTES,
  type OrderCheckItem,
  type OrderCheckOutcome,
} from './order-check.js';
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

/** A waiting proof, or a waiting order check (its encoded record). */
type Request =
  | { seq: number; kind: 'proof'; item: RawProofItem; resolve(ok: boolean): void; reject(err: Error): void }
  | {
      seq: number;
      kind: 'order';
      record: Uint8Array;
      resolve(outcome: OrderCheckOutcome): void;
      reject(err: Error): void;
    };
type RequestKind = Request['kind'];

/** Queues are per kind and key id: a job sent to a worker holds one kind for one key. */
const queueId = (kind: RequestKind, keyId: string) => `${kind}:${keyId}`;

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
    for (const id of keyIds) {
      this.queues.set(queueId('proof', id), new Fifo<Request>());
      if (pool.nPublic(id) === ORDER_CHECK_PUBLIC_INPUTS)
        this.queues.set(queueId('order', id), new Fifo<Request>());
    }
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
    const queue = this.queues.get(queueId('proof', keyId));
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
    const full = this.refuseWhenFull();
    if (full) return full;
    return new Promise<boolean>((resolve, reject) => {
      this.enqueue(queue, { seq: this.seq++, kind: 'proof', item, resolve, reject });
    });
  }

  /**
   * Runs one order's cryptographic intake steps (opening, signature, VALID_INPUT v2 proof; see
   * order-check.ts) on a worker, batched with other orders' checks. `keyId` must name a
   * VALID_INPUT v2 key. Rejects with the same typed errors as `verify` (queue full, closed, worker
   * failure) and with RangeError for malformed fields.
   */
  checkOrder(check: OrderCheckItem, keyId: string = this.defaultKeyId): Promise<OrderCheckOutcome> {
    if (this.closed) return Promise.reject(new VerifierClosedError());
    const queue = this.queues.get(queueId('order', keyId));
    if (queue === undefined) {
      return Promise.reject(
        new VerificationKeyError('GROTH16_UNKNOWN_KEY', `no VALID_INPUT v2 key with id ${keyId}`),
      );
    }
    const record = new Uint8Array(ORDER_RECORD_BYTES);
    try {
      encodeOrderCheck(check, record, 0);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    const full = this.refuseWhenFull();
    if (full) return full;
    return new Promise<OrderCheckOutcome>((resolve, reject) => {
      this.enqueue(queue, { seq: this.seq++, kind: 'order', record, resolve, reject });
    });
  }

  private refuseWhenFull(): Promise<never> | undefined {
    if (this.queued < this.maxQueue) return undefined;
    this.counters.refused++;
    return Promise.reject(new VerifierCapacityError(`verification queue is full (${this.maxQueue} waiting)`));
  }

  private enqueue(queue: Fifo<Request>, request: Request): void {
    this.counters.submitted++;
    queue.push(request);
    this.queued++;
    this.schedule();
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
      // The queue whose oldest request has waited longest.
      let id: string | undefined;
      let oldest = Infinity;
      for (const [qid, q] of this.queues) {
        const head = q.peek();
        if (head !== undefined && head.seq < oldest) {
          oldest = head.seq;
          id = qid;
        }
      }
      if (id === undefined) return;
      const queue = this.queues.get(id) as Fifo<Request>;
      const n = Math.min(this.maxBatchSize, Math.ceil(queue.length / idle));
      const batch = queue.take(n);
      this.queued -= batch.length;
      this.send(id.slice(id.indexOf(':') + 1), batch);
    }
  }

  private send(keyId: string, batch: Request[]): void {
    this.counters.batches++;
    if (batch.length === 1) this.counters.singles++;
    this.counters.largestBatch = Math.max(this.counters.largestBatch, batch.length);
    this.inFlight += batch.length;
    const tracked = this.runBatch(keyId, batch)
      .then(
        (settle) => {
          // Counters move before the callers resume, so a caller sees its own request done.
          this.inFlight -= batch.length;
          this.counters.completed += batch.length;
          settle();
        },
        (err: Error) => {
          this.inFlight -= batch.length;
          for (const r of batch) r.reject(err);
        },
      )
      .finally(() => this.inFlightJobs.delete(tracked));
    this.inFlightJobs.add(tracked);
  }

  /** Sends one batch (all of one kind) to the pool; returns how to settle each request. */
  private async runBatch(keyId: string, batch: Request[]): Promise<() => void> {
    const orders = batch.filter((r) => r.kind === 'order');
    if (orders.length > 0) {
      const records = new Uint8Array(orders.length * ORDER_RECORD_BYTES);
      orders.forEach((r, i) => records.set(r.record, i * ORDER_RECORD_BYTES));
      const results = await this.pool.runOrders(keyId, records, orders.length);
      const outcomes = decodeOrderResults(results, orders.length);
      return () => orders.forEach((r, i) => r.resolve(outcomes[i]!));
    }
    const proofs = batch.filter((r) => r.kind === 'proof');
    const results = await this.pool.run(
      keyId,
      proofs.map((r) => r.item),
    );
    return () => proofs.forEach((r, i) => r.resolve(results[i] === true));
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
