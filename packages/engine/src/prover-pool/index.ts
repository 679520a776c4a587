/** The prover pool's public surface: attestation and registration, the worker (`nightjar prover`) and its seams. */
export * from './types.js';
export * from './worker-identity.js';
export * from './worker-evidence.js';
export * from './verify-worker.js';
export * from './challenges.js';
export * from './registry.js';
export * from './registration.js';
export { runProverWorker, type JobProver, type ProverWorker, type ProverWorkerOptions } from './worker.js';
export type { ProverPoolOptions as ProverPoolBootOptions } from './pool-boot.js';
