/**
 * One worker thread of NoteProver's pool: the job it proves, whether it has started, the circuits
 * it holds. The pool (prover.ts) decides what it proves and what its failure means.
 */
import { Worker } from 'node:worker_threads';

import type { CircuitName } from './artifacts.js';
import type { ProverBackend } from './native-prover.js';
import type { ProverWorkerData, ProverWorkerReady, ProverWorkerReply } from './prover-protocol.js';
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
  };
  worker.unref();
  worker.on('message', (msg: ProverWorkerReply | ProverWorkerReady) => {
    if (!('id' in msg)) {
      slot.ready = true;
      on.ready(msg.backend);
      onReady();
      return;
    }
    on.reply(msg);
  });
  worker.on('error', on.failure);
  worker.on('exit', (code) => on.failure(new Error(`exited with code ${code}`)));
  return slot;
}
