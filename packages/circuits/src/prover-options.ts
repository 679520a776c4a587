/** NoteProver's options (prover.ts). */
import type { ProverBackend } from './native-prover.js';

export interface ProverOptions {
  /** Worker threads, each proving one proof at a time (default 1). */
  workers?: number;
  /** Jobs that may wait for a worker; one more is rejected with ProverQueueFullError (default 64). */
  maxQueue?: number;
  /**
   * false (default): each worker spreads a proof over snarkjs' helper threads (one per core),
   * for the lowest latency. true: each worker proves on one core, for several workers on a
   * machine with many cores without oversubscribing it.
   */
  singleThread?: boolean;
  /**
   * The Groth16 prover: 'native' (the C++ addon; a worker fails to start when it is not built),
   * 'snarkjs', or absent (default): the addon when it is built, else snarkjs, as
   * selectProverBackend() decides (NIGHTJAR_PROVER=snarkjs forces snarkjs). With 'native',
   * `singleThread` means one prover thread per worker, else one per core.
   */
  backend?: ProverBackend;
}

export const BACKENDS: readonly ProverBackend[] = ['native', 'snarkjs'];
