/** Messages between the prover (parent thread) and prover-worker.ts. */
import type { CircuitName } from './artifacts.js';
import type { CircuitInput } from './witness.js';
import type { SnarkjsProofJson } from '@nightjar/crypto';
import type { ProverBackend } from './native-prover.js';

export interface ProverWorkerData {
  circuits: Partial<Record<CircuitName, { wasm: Uint8Array; zkey: Uint8Array }>>;
  /** true: one single-threaded curve; false: snarkjs' helper threads, one per core. */
  singleThread: boolean;
  /** The Groth16 prover to use; absent: selectProverBackend() in the worker (the addon if built). */
  backend?: ProverBackend;
}

/** A worker's first message: it has loaded its modules and proves with `backend`. */
export interface ProverWorkerReady {
  ready: true;
  backend: ProverBackend;
}

export interface ProverWorkerRequest {
  id: number;
  circuit: CircuitName;
  input: CircuitInput;
  /** A circuit's artifacts the worker was not started with (sent once per worker, then cached). */
  artifacts?: { wasm: Uint8Array; zkey: Uint8Array };
}

export type ProverWorkerReply =
  | { id: number; ok: true; proof: SnarkjsProofJson; publicSignals: string[]; ms: number }
  | { id: number; ok: false; error: string };

/** Readies circuits' keys in a worker before their first proof (NoteProver.warm). */
export interface ProverWorkerWarmRequest {
  warm: number;
  circuits: CircuitName[];
  /** The circuits the worker was not started with (then cached, as with a job's artifacts). */
  artifacts: Partial<Record<CircuitName, { wasm: Uint8Array; zkey: Uint8Array }>>;
}

/** `proofMs`: the slowest of the warm-up's timed proofs (absent when the backend measures none). */
export type ProverWorkerWarmed =
  { warmed: number; ok: true; proofMs?: number } | { warmed: number; ok: false; error: string };
