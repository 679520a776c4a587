/**
 * Real proofs through the pool: a worker process with the circuits' NoteProver proves a VALID_MATCH
 * v2 and a VALID_LOCK job, and the engine side accepts them only after the real Groth16 verifier
 * (the committed dev keys) checked them against the public values it computed itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVerificationKey, validLockWitness, validMatchV2Witness } from '@nightjar/circuits';
import { generateX25519KeyPair, Groth16Verifier, validMatchV2PublicSignals } from '@nightjar/crypto';
import { bytesToHex } from '@nightjar/protocol';
import { validLockParams, validMatchV2Params } from '../../../circuits/bench/proving-fixtures.js';
import type { MatchProver, MatchVerifier } from '../../src/settlement/match-prover.js';
import { testPoolProver, workerIdentity } from './fake-pool.js';
import { startQueueDb, type QueueDb } from './queue-db.js';

const WORKER = fileURLToPath(new URL('../../bench/prover-pool-worker.ts', import.meta.url));
const ENGINE_ID = 'engine-real';

async function verifierOf(circuit: 'valid_match_v2' | 'valid_lock'): Promise<MatchVerifier> {
  const v = await Groth16Verifier.create(await loadVerificationKey(circuit));
  return { verify: async (proof, signals) => v.verify(proof, signals) };
}

describe('prover pool with real proofs', () => {
  let db: QueueDb;
  let proc: ChildProcess | undefined;
  const engineKey = generateX25519KeyPair();
  const worker = workerIdentity('real');
  const noFallback: MatchProver = {
    prove: () => Promise.reject(new Error('no fallback here')),
    proveLock: () => Promise.reject(new Error('no fallback here')),
    close: async () => {},
  };

  beforeAll(async () => {
    db = await startQueueDb();
    proc = spawn(process.execPath, ['--conditions=nightjar-source', '--import', 'tsx', WORKER], {
      env: {
        ...process.env,
        QUEUE_URL: db.server.url,
        ENGINE_ID,
        ENGINE_PUBLIC_KEY: bytesToHex(engineKey.publicKey),
        WORKER_ID: worker.attested.workerId,
        WORKER_PRIVATE_KEY: bytesToHex(worker.key.privateKey),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      proc!.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      proc!.once('exit', (code) => reject(new Error(`worker exited (${code})`)));
    });
  }, 120_000);
  afterAll(async () => {
    proc?.kill('SIGKILL');
    await db?.close();
  });

  it('accepts a remote match proof and lock proof the real verifier checks', async () => {
    const matchVerifier = await verifierOf('valid_match_v2');
    const lockVerifier = await verifierOf('valid_lock');
    const prover = testPoolProver(
      { pool: db.pool, url: db.server.url, engineId: ENGINE_ID, resultKey: engineKey, fallback: noFallback },
      [worker],
      { verifyMatch: matchVerifier, verifyLock: lockVerifier },
    );
    try {
      const params = validMatchV2Params();
      const match = await prover.prove(params);
      const signals = validMatchV2PublicSignals(validMatchV2Witness(params).publicInputs);
      expect(match.publicSignals).toEqual(signals);
      expect(await matchVerifier.verify(match.proof, signals)).toBe(true);
      const lock = await prover.proveLock(validLockParams());
      expect(lock.publicInputs).toEqual(validLockWitness(validLockParams()).publicInputs);
      expect(await lockVerifier.verify(lock.proof, lock.publicInputs)).toBe(true);
      // A match proof is not a lock proof: the verifiers are not interchangeable.
      expect(await lockVerifier.verify(match.proof, lock.publicInputs)).toBe(false);
    } finally {
      await prover.close();
    }
  }, 120_000);
});
