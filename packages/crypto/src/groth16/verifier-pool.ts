/**
 * A pool of worker threads verifying Groth16 proofs. Each worker loads mcl and prepares every
 * verification key once; a job is a batch of raw proofs for one key id, sent as one transferred
 * ArrayBuffer (no JSON). A worker that dies is replaced; its in-flight jobs are rejected with a
 * typed error. Idle workers do not keep the process alive (busy or starting ones do).
 *
 * The worker is TypeScript, loaded through tsx (see `startWorker`); this works under vitest and
 * under tsx.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  type Groth16Error,
  VerificationKeyError,
  VerifierClosedError,
  VerifierWorkerError,
  type Groth16ErrorCode,
} from './errors.js';
import { FIELD_ELEMENT_BYTES, PROOF_BYTES, assertProofLength } from './proof-format.js';
import { assertPublicInputLength } from './public-inputs.js';
import {
  parseVerificationKey,
  type SnarkjsVerificationKey,
  type VerificationKey,
} from './verification-key.js';
import { ORDER_CHECK_PUBLIC_INPUTS, ORDER_RECORD_BYTES } from './order-check.js';
import type { FromWorker, VerifyJob, WorkerInit } from './worker-protocol.js';

export type VerificationKeyInput = VerificationKey | SnarkjsVerificationKey;

export interface VerifierPoolOptions {
  /** Verification keys by key id (e.g. `VALID_INPUT`, `VALID_SPEND`): parsed keys or snarkjs JSON. */
  keys: Record<string, VerificationKeyInput> | ReadonlyMap<string, VerificationKeyInput>;
  /** Number of worker threads; defaults to the number of cores. */
  size?: number;
  /** Replacement workers started after unexpected worker deaths before giving up (default 16). */
  maxRespawns?: number;
}

/** One proof and its public inputs, both as bytes (256 and nPublic × 32). */
export interface RawProofItem {
  proof: Uint8Array;
  publicInputs: Uint8Array;
}

interface PendingJob {
  resolve(results: ArrayBuffer): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  alive: boolean;
  busy: number;
  jobs: Map<number, PendingJob>;
  readyPromise: Promise<void>;
  exited: Promise<void>;
}

function workerError(code: Groth16ErrorCode | undefined, message: string): Groth16Error {
  if (code === 'GROTH16_INVALID_VERIFICATION_KEY' || code === 'GROTH16_COORDINATE_OUT_OF_RANGE') {
    return new VerificationKeyError(code, message);
  }
  return new VerifierWorkerError(message);
}

/**
 * How to start the worker. A compiled `.js` worker is started directly. A TypeScript worker is
 * started from a tiny eval'd bootstrap that imports it through tsx's `tsImport` API (resolved to an
 * absolute URL from this file, so the current directory does not matter). Node 20 does not apply
 * loader hooks given as `execArgv: ['--import', 'tsx']` to a worker's own entry module ("Unknown
 * file extension .ts"), so that form is not used; this bootstrap works under plain tsx and vitest.
 */
function startWorker(workerData: WorkerInit): Worker {
  const self = import.meta.url;
  const isTs = /\.[cm]?ts$/.test(new URL(self).pathname);
  if (!isTs) return new Worker(new URL('./verify-worker.js', self), { workerData });
  const target = new URL('./verify-worker.ts', self).href;
  const tsxApi = resolveTsxEsmApi(self);
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(target)}, ${JSON.stringify(self)}));`;
  // The sources' @nightjar/* imports resolve to src/ too (the "nightjar-source" export condition).
  const execArgv = [...process.execArgv, '--conditions=nightjar-source'];
  return new Worker(bootstrap, { eval: true, workerData, execArgv });
}

/** URL of tsx's ESM API (`tsx/esm/api`, import condition), resolved from `from`. */
function resolveTsxEsmApi(from: string): string {
  const require = createRequire(from);
  const pkgPath = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as {
    exports?: Record<string, { import?: { default?: string } | string } | string>;
  };
  const entry = pkg.exports?.['./esm/api'];
  const target = typeof entry === 'object' ? entry.import : undefined;
  const rel = typeof target === 'string' ? target : target?.default;
  if (rel === undefined)
    throw new VerifierWorkerError('cannot locate tsx/esm/api to start the TypeScript worker');
  return pathToFileURL(join(dirname(pkgPath), rel)).href;
}

export class VerifierPool {
  /** Configured number of workers. */
  readonly size: number;
  private readonly keys: Map<string, VerificationKey>;
  private readonly init: WorkerInit;
  private readonly slots = new Set<Slot>();
  private readonly idleListeners = new Set<() => void>();
  private nextJobId = 1;
  private closed = false;
  private respawnsLeft: number;

  private constructor(keys: Map<string, VerificationKey>, size: number, maxRespawns: number) {
    this.keys = keys;
    this.size = size;
    this.respawnsLeft = maxRespawns;
    this.init = { keys: [...keys.entries()] };
  }

  /** Starts the workers and waits until every one has loaded mcl and the keys. */
  static async create(options: VerifierPoolOptions): Promise<VerifierPool> {
    const entries =
      options.keys instanceof Map
        ? [...(options.keys as ReadonlyMap<string, VerificationKeyInput>).entries()]
        : Object.entries(options.keys as Record<string, VerificationKeyInput>);
    if (entries.length === 0)
      throw new VerificationKeyError('GROTH16_UNKNOWN_KEY', 'no verification keys given');
    const keys = new Map<string, VerificationKey>();
    for (const [id, vk] of entries) keys.set(id, toParsedKey(vk));
    const requested = options.size ?? availableParallelism();
    const size = Number.isFinite(requested) ? Math.max(1, Math.floor(requested)) : availableParallelism();
    const pool = new VerifierPool(keys, size, options.maxRespawns ?? 16);
    const slots: Slot[] = [];
    for (let i = 0; i < size; i++) slots.push(pool.spawn());
    try {
      await Promise.all(slots.map((s) => s.readyPromise));
    } catch (err) {
      await pool.close();
      throw err;
    }
    return pool;
  }

  /** Key ids this pool verifies. */
  keyIds(): string[] {
    return [...this.keys.keys()];
  }

  /** Number of public inputs of a key; throws VerificationKeyError(GROTH16_UNKNOWN_KEY) if unknown. */
  nPublic(keyId: string): number {
    const vk = this.keys.get(keyId);
    if (vk === undefined)
      throw new VerificationKeyError('GROTH16_UNKNOWN_KEY', `unknown verification key id ${keyId}`);
    return vk.nPublic;
  }

  /** Workers that are started, alive and have no job. */
  get idleWorkers(): number {
    let n = 0;
    for (const s of this.slots) if (s.ready && s.alive && s.busy === 0) n++;
    return n;
  }

  /** Worker threads currently alive (0 after `close()`). */
  get liveWorkers(): number {
    let n = 0;
    for (const s of this.slots) if (s.alive) n++;
    return n;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Registers a callback run whenever a worker becomes idle. Returns an unsubscribe function. */
  onIdle(listener: () => void): () => void {
    this.idleListeners.add(listener);
    return () => this.idleListeners.delete(listener);
  }

  /**
   * Verifies a batch (one key id) on an idle worker, or on the least busy one when none is idle.
   * Resolves to one boolean per item. Rejects with typed errors: unknown key, bad shapes, closed
   * pool, or a worker failure.
   */
  run(keyId: string, items: readonly RawProofItem[]): Promise<boolean[]> {
    if (this.closed) return Promise.reject(new VerifierClosedError());
    let buffer: ArrayBuffer;
    try {
      const nPublic = this.nPublic(keyId);
      const inputBytes = nPublic * FIELD_ELEMENT_BYTES;
      const bytes = new Uint8Array(items.length * (PROOF_BYTES + inputBytes));
      const inputsAt = items.length * PROOF_BYTES;
      items.forEach((item, i) => {
        assertProofLength(item.proof);
        assertPublicInputLength(item.publicInputs, nPublic);
        bytes.set(item.proof, i * PROOF_BYTES);
        bytes.set(item.publicInputs, inputsAt + i * inputBytes);
      });
      buffer = bytes.buffer;
    } catch (err) {
      return Promise.reject(err as Error);
    }
    if (items.length === 0) return Promise.resolve([]);
    return this.post('verify', keyId, items.length, buffer).then((results) =>
      Array.from(new Uint8Array(results), (b) => b === 1),
    );
  }

  /**
   * Runs order checks (opening, signature, proof; see order-check.ts) for `count` encoded records
   * under a VALID_INPUT v2 key id. Resolves to the encoded outcomes (`decodeOrderResults`).
   */
  runOrders(keyId: string, records: Uint8Array, count: number): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new VerifierClosedError());
    try {
      if (this.nPublic(keyId) !== ORDER_CHECK_PUBLIC_INPUTS)
        throw new VerificationKeyError('GROTH16_UNKNOWN_KEY', `key ${keyId} is not a VALID_INPUT v2 key`);
      if (records.length !== count * ORDER_RECORD_BYTES)
        throw new RangeError('order records have the wrong size');
    } catch (err) {
      return Promise.reject(err as Error);
    }
    if (count === 0) return Promise.resolve(new Uint8Array(0));
    const buffer = records.slice().buffer;
    return this.post('orders', keyId, count, buffer).then((results) => new Uint8Array(results));
  }

  private post(
    type: VerifyJob['type'],
    keyId: string,
    count: number,
    buffer: ArrayBuffer,
  ): Promise<ArrayBuffer> {
    const slot = this.pickSlot();
    if (slot === undefined) return Promise.reject(new VerifierWorkerError('no live verification worker'));
    const jobId = this.nextJobId++;
    return new Promise<ArrayBuffer>((resolve, reject) => {
      slot.jobs.set(jobId, { resolve, reject });
      if (slot.busy++ === 0) slot.worker.ref();
      const job: VerifyJob = { type, jobId, keyId, count, buffer };
      slot.worker.postMessage(job, [buffer]);
    });
  }

  /** Terminates every worker; jobs still in flight are rejected with VerifierClosedError. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = [...this.slots];
    for (const s of slots) this.failJobs(s, new VerifierClosedError());
    await Promise.all(
      slots.map(async (s) => {
        if (s.alive) await s.worker.terminate();
        await s.exited;
      }),
    );
    this.idleListeners.clear();
  }

  private pickSlot(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) {
      if (!s.ready || !s.alive) continue;
      if (best === undefined || s.busy < best.busy) best = s;
      if (s.busy === 0) break;
    }
    return best;
  }

  private failJobs(slot: Slot, err: Error): void {
    const jobs = [...slot.jobs.values()];
    slot.jobs.clear();
    slot.busy = 0;
    for (const j of jobs) j.reject(err);
  }

  private notifyIdle(): void {
    for (const l of [...this.idleListeners]) l();
  }

  private spawn(): Slot {
    // Referenced while starting (so `await VerifierPool.create()` keeps the process alive) and
    // while busy; unreferenced when idle.
    const worker = startWorker(this.init);
    let markReady!: () => void;
    let failReady!: (err: Error) => void;
    const readyPromise = new Promise<void>((res, rej) => {
      markReady = res;
      failReady = rej;
    });
    readyPromise.catch(() => undefined);
    let markExited!: () => void;
    const exited = new Promise<void>((res) => (markExited = res));
    const slot: Slot = { worker, ready: false, alive: true, busy: 0, jobs: new Map(), readyPromise, exited };
    this.slots.add(slot);

    worker.on('message', (msg: FromWorker) => {
      switch (msg.type) {
        case 'ready':
          slot.ready = true;
          if (slot.busy === 0) worker.unref();
          markReady();
          if (!this.closed) this.notifyIdle();
          return;
        case 'init-error':
          failReady(workerError(msg.code, msg.message));
          void worker.terminate();
          return;
        case 'result':
        case 'error': {
          const job = slot.jobs.get(msg.jobId);
          if (job === undefined) return;
          slot.jobs.delete(msg.jobId);
          if (--slot.busy === 0) slot.worker.unref();
          if (msg.type === 'result') {
            job.resolve(msg.results);
          } else {
            job.reject(workerError(msg.code, `verification worker: ${msg.message}`));
          }
          if (slot.busy === 0 && !this.closed) this.notifyIdle();
          return;
        }
      }
    });
    worker.on('error', (err) => {
      failReady(new VerifierWorkerError(`verification worker failed: ${err.message}`));
      this.failJobs(slot, new VerifierWorkerError(`verification worker failed: ${err.message}`));
    });
    worker.on('exit', (code) => {
      slot.alive = false;
      this.slots.delete(slot);
      markExited();
      const err = new VerifierWorkerError(`verification worker exited with code ${code}`);
      failReady(err);
      this.failJobs(slot, this.closed ? new VerifierClosedError() : err);
      // Replace a worker that died after starting; a worker that never started is not retried.
      if (!this.closed && slot.ready && this.respawnsLeft > 0) {
        this.respawnsLeft--;
        this.spawn();
      }
    });
    return slot;
  }
}

function toParsedKey(vk: VerificationKeyInput): VerificationKey {
  if (typeof vk === 'object' && vk !== null && 'ic' in vk && Array.isArray((vk as VerificationKey).ic)) {
    return vk as VerificationKey;
  }
  return parseVerificationKey(vk);
}
