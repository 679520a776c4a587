/**
 * Stand-ins for the prover pool's tests: attested workers holding keys the test generates, a
 * registration that hands out the test's queue and engine key, and a "prover" whose proof is a
 * hash of the public signals (with a verifier that checks exactly that), or a dishonest one.
 */
import { createHash } from 'node:crypto';
import {
  validLockWitness,
  validMatchV2Witness,
  type LockProofResult,
  type ValidLockParams,
  type ValidMatchV2Params,
} from '@nightjar/circuits';
import { generateX25519KeyPair, validMatchV2PublicSignals, type X25519KeyPair } from '@nightjar/crypto';
import type { MatchVerifier } from '../../src/settlement/match-prover.js';
import type { AttestedWorker, AttestedWorkers, WorkerRegistration } from '../../src/prover-pool/types.js';
import type { JobProver } from '../../src/prover-pool/worker.js';

export function fakeProof(publicSignals: readonly bigint[]): Uint8Array {
  const h = createHash('sha256').update(publicSignals.join(',')).digest();
  return new Uint8Array(Buffer.concat(Array.from({ length: 8 }, () => h)));
}

export const fakeVerifier: MatchVerifier = {
  verify: async (proof, signals) => Buffer.from(proof).equals(Buffer.from(fakeProof(signals))),
};

export interface FakeProver extends JobProver {
  proved: number;
}

/** Honest (its proofs verify) or not (each proof is 256 zero bytes). */
export function fakeProver(honest = true): FakeProver {
  const p: FakeProver = {
    proved: 0,
    async proveValidMatchV2(params: ValidMatchV2Params) {
      p.proved++;
      const w = validMatchV2Witness(params);
      const publicSignals = validMatchV2PublicSignals(w.publicInputs);
      const proof = honest ? fakeProof(publicSignals) : new Uint8Array(256);
      return { proof, publicInputs: w.publicInputs, publicSignals, outputs: w.outputs };
    },
    async proveValidLock(params: ValidLockParams): Promise<LockProofResult> {
      p.proved++;
      const w = validLockWitness(params);
      const proof = honest ? fakeProof(w.publicInputs) : new Uint8Array(256);
      return { proof, publicInputs: w.publicInputs, derived: w.derived };
    },
    async close() {},
  };
  return p;
}

export interface FakeWorkerIdentity {
  key: X25519KeyPair;
  attested: AttestedWorker;
}

export function workerIdentity(name: string): FakeWorkerIdentity {
  const key = generateX25519KeyPair();
  const workerId = createHash('sha256').update(key.publicKey).digest('hex').slice(0, 32);
  return {
    key,
    attested: {
      workerId: `${name}-${workerId}`,
      sealingPublicKey: key.publicKey,
      composeHash: 'test',
      attestedAtMs: 0,
    },
  };
}

export function attestedWorkers(list: AttestedWorker[]): AttestedWorkers {
  return { list: () => list, get: (id) => list.find((w) => w.workerId === id) };
}

export function registration(
  w: FakeWorkerIdentity,
  engine: { engineId: string; publicKey: Uint8Array },
  queueUrl: string,
  ttlMs = 60_000,
): WorkerRegistration {
  return {
    workerId: w.attested.workerId,
    enginePublicKey: engine.publicKey,
    engineId: engine.engineId,
    queueUrl,
    ttlMs,
  };
}
