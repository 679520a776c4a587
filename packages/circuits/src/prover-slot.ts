/**
 * One worker thread of NoteProver's pool: the job it proves, whether it has started, the circuits
 * it holds. The pool (prover.ts) decides what it proves and what its failure means.
 */
import { Worker } from 'node:worker_threads';

import type { CircuitName } from './artifacts.js';
import type { ProverBackend } from './native-prover.js';
import type {
  ProverWorkerData,
  ProverWorkerReady,
  ProverWorkerReply,
  ProverWorkerWarmed,
  ProverWorkerWarmRequest,
} from './prover-protocol.js';
import type { CircuitInput } from './witness.js';

/** What a worker proves, and the public signals the proof must carry. */
export interface Prepared {
  input: CircuitInput;
  expected: bigint[];
}

export interface Job extends Prepared {
  circuit: CircuitName;
  resolve: (r: { proof: Uint8Array; publicSignals: bigint[] }) => void;
  reject: (e: Error) => void;
}

export interface Slot {
  worker: Worker;
  job: Job | undefined;
  jobId: number;
  /** The worker has loaded its modules and answered. */
  ready: boolean;
  /** Settles when the worker is ready (or failed to start). */
  started: Promise<void>;
  /** Circuits whose artifacts this worker holds. */
  loaded: Set<CircuitName>;
  abortStart: (err: Error) => void;
  /**
   * Hands the worker these circuits (with the artifacts it lacks) and readies their keys; answers
   * the slowest timed warm-up proof in ms (undefined when the backend times none).
   */
  warm(circuits: CircuitName[], artifacts: ProverWorkerWarmRequest['artifacts']): Promise<number | undefined>;
}

/** What the pool hears from a slot's worker. */
export interface SlotEvents {
  /** The worker has loaded its modules (before the slot's `started` settles). */
  ready: (backend: ProverBackend) => void;
  reply: (msg: ProverWorkerReply) => void;
  /** The worker errored or exited. */
  failure: (err: Error) => void;
}

export function spawnSlot(data: ProverWorkerData | undefined, on: SlotEvents): Slot {
  // The entry is a tiny .mjs: it imports prover-worker.js when compiled, else loads
  // prover-worker.ts through tsx (see that file for why).
  const worker = new Worker(new URL('./prover-worker-boot.mjs', import.meta.url), {
    workerData: data,
    execArgv: [],
  });
  let onReady!: () => void;
  let onStartFailure!: (err: Error) => void;
  const warming = new Map<number, (msg: ProverWorkerWarmed) => void>();
  const started = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    onStartFailure = reject;
  });
  started.catch(() => {});
  const slot: Slot = {
    worker,
    job: undefined,
    jobId: 0,
    ready: false,
    started,
    abortStart: onStartFailure,
    loaded: new Set(Object.keys(data?.circuits ?? {}) as CircuitName[]),
    warm: (circuits, artifacts) => warmWorker(worker, warming, { circuits, artifacts }, slot),
  };
  worker.unref();
  worker.on('message', (msg: ProverWorkerReply | ProverWorkerReady | ProverWorkerWarmed) => {
    if ('warmed' in msg) return warming.get(msg.warmed)?.(msg);
    if (!('id' in msg)) {
      slot.ready = true;
      on.ready(msg.backend);
      onReady();
      return;
    }
    on.reply(msg);
  });
  const failed = (err: Error) => {
    for (const [id, answer] of warming) answer({ warmed: id, ok: false, error: err.message });
    on.failure(err);
  };
  worker.on('error', failed);
  worker.on('exit', (code) => failed(new Error(`exited with code ${code}`)));
  return slot;
}

let lastWarmId = 0;

/** One warm-up request to a slot's worker; `warming` holds its answer until the worker replies. */
function warmWorker(
  worker: Worker,
  warming: Map<number, (msg: ProverWorkerWarmed) => void>,
  req: Omit<ProverWorkerWarmRequest, 'warm'>,
  slot: Slot,
): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const id = ++lastWarmId;
    warming.set(id, (msg) => {
      warming.delete(id);
      if (!slot.job) worker.unref();
      if (!msg.ok) return reject(new Error(msg.error));
      for (const c of req.circuits) slot.loaded.add(c);
      resolve(msg.proofMs);
    });
    // Held open while warming, as while proving (an idle pool lets the process exit).
    worker.ref();
    worker.postMessage({ warm: id, ...req } satisfies ProverWorkerWarmRequest);
  });
}
