/**
 * Stand-ins for the prover pool's tests: attested workers holding keys the test generates, a
 * registration that hands out the test's queue and engine key, and a "prover" whose proof is a
 * hash of the public signals (with a verifier that checks exactly that), or a dishonest one.
 */
import { createHash } from 'node:crypto';
import { validLockWitness, validMatchV2Witness } from '@nightjar/circuits';
import { generateX25519KeyPair, validMatchV2PublicSignals, type X25519KeyPair } from '@nightjar/crypto';
import { hexToBytes } from '@nightjar/protocol';
import { JobQueue, resultChannel } from '../../src/prover-pool/job-queue.js';
import { PoolMatchProver, type PoolMatchProverOptions } from '../../src/prover-pool/pool-match-prover.js';
import { listenQueue } from '../../src/prover-pool/queue-listener.js';
import type { MatchProver, MatchVerifier } from '../../src/settlement/match-prover.js';
import type { PgPool } from '../../src/pg/pool.js';
import type {
  AttestedWorker,
  AttestedWorkers,
  RegisterWorker,
  WorkerRegistration,
} from '../../src/prover-pool/types.js';
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
    async proveValidMatchV2(params) {
      p.proved++;
      const w = validMatchV2Witness(params);
      const publicSignals = validMatchV2PublicSignals(w.publicInputs);
      const proof = honest ? fakeProof(publicSignals) : new Uint8Array(256);
      return { proof, publicInputs: w.publicInputs, publicSignals, outputs: w.outputs };
    },
    async proveValidLock(params) {
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

/** An environment variable a child process needs. */
export function env(name: string): string {
  const v = process.env[name];
  if (v === undefined) throw new Error(`${name} is not set`);
  return v;
}

/** A child worker's stub registration: its id, the engine's key and the queue, from the environment. */
export function envRegistration(ttlMs: number): RegisterWorker {
  return async () => ({
    workerId: env('WORKER_ID'),
    enginePublicKey: hexToBytes(env('ENGINE_PUBLIC_KEY')),
    engineId: env('ENGINE_ID'),
    queueUrl: env('QUEUE_URL'),
    ttlMs,
  });
}

export interface TestPoolSetup {
  pool: PgPool;
  url: string;
  engineId: string;
  resultKey: X25519KeyPair;
  fallback: MatchProver;
}

/** A PoolMatchProver on the test's queue with the fake verifier, sealing to `workers`. */
export function testPoolProver(
  t: TestPoolSetup,
  workers: FakeWorkerIdentity[],
  extra: Partial<PoolMatchProverOptions> = {},
): PoolMatchProver {
  return new PoolMatchProver({
    queue: new JobQueue(t.pool),
    engineId: t.engineId,
    bootId: 'boot-1',
    resultKey: t.resultKey,
    workers: attestedWorkers(workers.map((w) => w.attested)),
    fallback: t.fallback,
    verifyMatch: fakeVerifier,
    verifyLock: fakeVerifier,
    listen: (onWake) => listenQueue(t.url, resultChannel(t.engineId), onWake),
    ...extra,
  });
}
