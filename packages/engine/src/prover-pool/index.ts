/** The prover pool's public surface: the worker (`nightjar prover`) and the seams it registers through. */
export { runProverWorker, type JobProver, type ProverWorker, type ProverWorkerOptions } from './worker.js';
export type { ProverPoolOptions } from './pool-boot.js';
export type { AttestedWorker, AttestedWorkers, RegisterWorker, WorkerRegistration } from './types.js';
