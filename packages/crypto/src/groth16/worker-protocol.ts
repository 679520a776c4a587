/**
 * Messages between the verifier pool and its worker threads. Proofs and public inputs travel as one
 * transferred ArrayBuffer per job (no JSON): `count` proofs of 256 bytes, then `count` public-input
 * blocks of `nPublic * 32` bytes. Results come back as one transferred byte per proof (1 valid).
 * An `orders` job carries `count` order-check records instead (see order-check.ts) and its result
 * is their encoded outcomes.
 */
import type { Groth16ErrorCode } from './errors.js';
import type { VerificationKey } from './verification-key.js';

export interface WorkerInit {
  /** Verification keys by key id, already parsed (bigints survive structured clone). */
  keys: Array<[string, VerificationKey]>;
}

export interface VerifyJob {
  type: 'verify' | 'orders';
  jobId: number;
  keyId: string;
  count: number;
  buffer: ArrayBuffer;
}

export type ToWorker = VerifyJob;

export type FromWorker =
  | { type: 'ready' }
  | { type: 'init-error'; code: Groth16ErrorCode | undefined; message: string }
  | { type: 'result'; jobId: number; results: ArrayBuffer }
  | { type: 'error'; jobId: number; code: Groth16ErrorCode | undefined; message: string };
