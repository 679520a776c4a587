import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validLockWitness, validMatchV2Witness } from '@nightjar/circuits';
import { generateX25519KeyPair, validMatchV2PublicSignals } from '@nightjar/crypto';
import { validLockParams, validMatchV2Params } from '../../../circuits/bench/proving-fixtures.js';
import type { PoolMatchProver, PoolMatchProverOptions } from '../../src/prover-pool/pool-match-prover.js';
import { RemoteProofError } from '../../src/prover-pool/remote-jobs.js';
import { ProverRegistry } from '../../src/prover-pool/registry.js';
import { runProverWorker, type ProverWorker } from '../../src/prover-pool/worker.js';
import type { MatchProver } from '../../src/settlement/match-prover.js';
import {
  fakeProof,
  fakeProver,
  fakeVerifier,
  registration,
  testPoolProver,
  workerIdentity,
  type FakeWorkerIdentity,
} from './fake-pool.js';
import { startQueueDb, until, type QueueDb } from './queue-db.js';

const ENGINE_ID = 'engine-test';

describe('PoolMatchProver with workers in process', () => {
  let db: QueueDb;
  const engineKey = generateX25519KeyPair();
  const engine = { engineId: ENGINE_ID, publicKey: engineKey.publicKey };
  const honest = workerIdentity('honest');
  const dishonest = workerIdentity('dishonest');
  const started: ProverWorker[] = [];
  const provers: PoolMatchProver[] = [];
  let fallbackCalls = 0;
  const fallback: MatchProver = {
    prove: async () => (fallbackCalls++, Promise.reject(new Error('fallback used'))),
    proveLock: async () => (fallbackCalls++, Promise.reject(new Error('fallback used'))),
    close: async () => {},
  };

  const startWorker = async (w: FakeWorkerIdentity, honestProofs: boolean) => {
    const worker = await runProverWorker({
      register: async () => registration(w, engine, db.server.url),
      sealingPrivateKey: w.key.privateKey,
      prover: fakeProver(honestProofs),
      threads: 2,
    });
    started.push(worker);
    return worker;
  };
  const poolProver = (workers: FakeWorkerIdentity[], extra: Partial<PoolMatchProverOptions> = {}) => {
    const p = testPoolProver(
      { pool: db.pool, url: db.server.url, engineId: ENGINE_ID, resultKey: engineKey, fallback },
      workers,
      extra,
    );
    provers.push(p);
    return p;
  };

  beforeAll(async () => {
    db = await startQueueDb();
  });
  beforeEach(async () => {
    await Promise.all(started.splice(0).map((w) => w.stop()));
    await Promise.all(provers.splice(0).map((p) => p.close()));
    await db.pool.query('DELETE FROM prover_jobs');
    fallbackCalls = 0;
  });
  afterAll(async () => {
    await Promise.all(started.map((w) => w.stop()));
    await Promise.all(provers.map((p) => p.close()));
    await db?.close();
  });

  it('proves a match and a lock remotely, with the public values the engine computed', async () => {
    const worker = await startWorker(honest, true);
    const prover = poolProver([honest]);
    const params = validMatchV2Params();
    const w = validMatchV2Witness(params);
    const signals = validMatchV2PublicSignals(w.publicInputs);
    const proof = await prover.prove(params);
    expect(proof).toStrictEqual({
      proof: fakeProof(signals),
      publicInputs: w.publicInputs,
      publicSignals: signals,
      outputs: w.outputs,
    });
    const lock = await prover.proveLock(validLockParams());
    expect(lock.publicInputs).toEqual(validLockWitness(validLockParams()).publicInputs);
    // The worker counts its completion once the queue answers it (the engine may hear first).
    await until(() => worker.completed === 2);
    expect(prover.pending).toBe(0);
    // Taken results leave the queue.
    expect((await db.pool.query('SELECT count(*)::int AS n FROM prover_jobs')).rows[0].n).toBe(0);
    expect(fallbackCalls).toBe(0);
  });

  it('requeues an invalid proof away from its worker; another worker proves it', async () => {
    const bad = await startWorker(dishonest, false);
    const prover = poolProver([dishonest, honest]);
    const proving = prover.prove(validMatchV2Params());
    // The dishonest worker's result fails verification: the job is queued again without it.
    await until(async () => {
      const r = await db.pool.query('SELECT attempts, excluded FROM prover_jobs');
      return r.rows[0]?.attempts === 1;
    });
    await until(() => bad.completed === 1);
    await startWorker(honest, true);
    const proof = await proving;
    expect(await fakeVerifier.verify(proof.proof, proof.publicSignals)).toBe(true);
  });

  it('drops a worker whose proof fails verification: later jobs are not sealed to it', async () => {
    const registry = new ProverRegistry({ now: () => 0 });
    registry.admit(dishonest.attested, 'machine-dishonest');
    registry.admit(honest.attested, 'machine-honest');
    await startWorker(dishonest, false);
    const prover = poolProver([], { workers: registry });
    const proving = prover.prove(validMatchV2Params());
    await until(() => registry.get(dishonest.attested.workerId) === undefined);
    expect(registry.list().map((w) => w.workerId)).toEqual([honest.attested.workerId]);
    // The next job is sealed to the honest worker alone.
    const next = prover.prove(validMatchV2Params());
    await until(async () => (await db.pool.query('SELECT 1 FROM prover_jobs')).rowCount === 2);
    const keys = await db.pool.query<{ k: string[] }>(
      'SELECT ARRAY(SELECT jsonb_object_keys(sealed_keys)) AS k FROM prover_jobs ORDER BY id',
    );
    expect(keys.rows.map((r) => r.k.sort())).toEqual([
      [dishonest.attested.workerId, honest.attested.workerId].sort(),
      [honest.attested.workerId],
    ]);
    await startWorker(honest, true);
    for (const proof of await Promise.all([proving, next]))
      expect(await fakeVerifier.verify(proof.proof, proof.publicSignals)).toBe(true);
  });

  it('rejects a job whose every result is invalid after a few attempts', async () => {
    const liars = [workerIdentity('liar-1'), workerIdentity('liar-2')];
    for (const l of liars) await startWorker(l, false);
    const prover = poolProver(liars, { maxAttempts: 2 });
    await expect(prover.prove(validMatchV2Params())).rejects.toThrow(RemoteProofError);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM prover_jobs')).rows[0].n).toBe(0);
  });

  it('proves in process when no worker is attested', async () => {
    const prover = poolProver([]);
    await expect(prover.prove(validMatchV2Params())).rejects.toThrow('fallback used');
    await expect(prover.proveLock(validLockParams())).rejects.toThrow('fallback used');
    expect(fallbackCalls).toBe(2);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM prover_jobs')).rows[0].n).toBe(0);
  });

  it('cancels an aborted job and gives up one past its deadline', async () => {
    const prover = poolProver([honest], { deadlineMs: 300 });
    const abort = new AbortController();
    const aborted = prover.prove(validMatchV2Params(), abort.signal);
    await until(async () => (await db.pool.query('SELECT 1 FROM prover_jobs')).rowCount === 1);
    abort.abort(new Error('match rejected'));
    await expect(aborted).rejects.toThrow('match rejected');
    await until(async () => (await db.pool.query('SELECT 1 FROM prover_jobs')).rowCount === 0);
    // No worker is running: the deadline passes.
    await expect(prover.prove(validMatchV2Params())).rejects.toThrow(/not done within 300 ms/);
    expect(prover.pending).toBe(0);
  });

  it('registers again before its registration lapses, and retries a failed registration', async () => {
    let calls = 0;
    const worker = await runProverWorker({
      register: async () => {
        calls++;
        if (calls === 2) throw new Error('engine unreachable');
        return registration(honest, engine, db.server.url, 200);
      },
      sealingPrivateKey: honest.key.privateKey,
      prover: fakeProver(true),
    });
    started.push(worker);
    // At half the 200 ms ttl, again after the failure (sooner), and on.
    await until(() => calls >= 4);
    await worker.stop();
    const after = calls;
    await new Promise((r) => setTimeout(r, 300));
    expect(calls).toBe(after);
  });

  it('refuses more jobs than its pending cap', async () => {
    const prover = poolProver([honest], { maxPending: 1 });
    const first = prover.prove(validMatchV2Params());
    await until(() => prover.pending === 1);
    await expect(prover.prove(validMatchV2Params())).rejects.toThrow(/queue is full/);
    const closed = expect(first).rejects.toThrow(/closed/);
    await prover.close();
    await closed;
  });
});
