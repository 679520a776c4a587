/**
 * The prover pool with real worker processes: one SIGKILLed while it holds a job (its lease lapses
 * and the other worker proves the job; the engine takes exactly one result), and one stopped with
 * SIGTERM (it hands its job back at once).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateX25519KeyPair } from '@nightjar/crypto';
import { bytesToHex } from '@nightjar/protocol';
import { validMatchV2Params } from '../../../circuits/bench/proving-fixtures.js';
import type { PoolMatchProver } from '../../src/prover-pool/pool-match-prover.js';
import type { MatchProver } from '../../src/settlement/match-prover.js';
import { fakeVerifier, testPoolProver, workerIdentity, type FakeWorkerIdentity } from './fake-pool.js';
import { startQueueDb, until, type QueueDb } from './queue-db.js';

const ENTRY = fileURLToPath(new URL('./worker-entry.ts', import.meta.url));
const ENGINE_ID = 'engine-faults';

interface Child {
  proc: ChildProcess;
  events: Record<string, unknown>[];
  exited: Promise<NodeJS.Signals | number | null>;
}

describe('prover pool worker processes', () => {
  let db: QueueDb;
  const engineKey = generateX25519KeyPair();
  const children: Child[] = [];
  const provers: PoolMatchProver[] = [];
  const noFallback: MatchProver = {
    prove: () => Promise.reject(new Error('no fallback here')),
    proveLock: () => Promise.reject(new Error('no fallback here')),
    close: async () => {},
  };

  const startWorker = async (w: FakeWorkerIdentity, env: { PROVE_MS: number; LEASE_MS: number }) => {
    const proc = spawn(process.execPath, ['--conditions=nightjar-source', '--import', 'tsx', ENTRY], {
      env: {
        ...process.env,
        QUEUE_URL: db.server.url,
        ENGINE_ID,
        ENGINE_PUBLIC_KEY: bytesToHex(engineKey.publicKey),
        WORKER_ID: w.attested.workerId,
        WORKER_PRIVATE_KEY: bytesToHex(w.key.privateKey),
        PROVE_MS: String(env.PROVE_MS),
        LEASE_MS: String(env.LEASE_MS),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const child: Child = {
      proc,
      events: [],
      exited: new Promise((r) => proc.on('exit', (code, signal) => r(signal ?? code))),
    };
    let buffered = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const l of lines) child.events.push(JSON.parse(l) as Record<string, unknown>);
    });
    children.push(child);
    await until(() => child.events.some((e) => 'ready' in e), 30_000);
    return child;
  };
  const poolProver = (workers: FakeWorkerIdentity[]) => {
    const p = testPoolProver(
      { pool: db.pool, url: db.server.url, engineId: ENGINE_ID, resultKey: engineKey, fallback: noFallback },
      workers,
    );
    provers.push(p);
    return p;
  };
  const holder = async () =>
    (await db.pool.query<{ worker_id: string | null }>('SELECT worker_id FROM prover_jobs')).rows[0]
      ?.worker_id;
  const completions = (c: Child) => c.events.filter((e) => 'completed' in e).length;

  beforeAll(async () => {
    db = await startQueueDb();
  });
  afterEach(async () => {
    for (const c of children.splice(0))
      if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await Promise.all(provers.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await db?.close();
  });

  it('a job whose worker is SIGKILLed is proved by the other; the engine takes one result', async () => {
    const [a, b] = [workerIdentity('a'), workerIdentity('b')];
    const prover = poolProver([a, b]);
    // Worker a claims the job and proves slowly; b starts only once a holds it.
    const slow = await startWorker(a, { PROVE_MS: 600_000, LEASE_MS: 1_000 });
    const proving = prover.prove(validMatchV2Params());
    await until(async () => (await holder()) === a.attested.workerId);
    await until(() => slow.events.some((e) => 'proving' in e));
    const fast = await startWorker(b, { PROVE_MS: 0, LEASE_MS: 1_000 });
    slow.proc.kill('SIGKILL');
    expect(await slow.exited).toBe('SIGKILL');
    const proof = await proving;
    expect(await fakeVerifier.verify(proof.proof, proof.publicSignals)).toBe(true);
    await until(() => completions(fast) === 1);
    expect(completions(slow)).toBe(0);
    // The result was taken and the job is gone: nothing is left to prove twice.
    expect((await db.pool.query('SELECT 1 FROM prover_jobs')).rowCount).toBe(0);
    expect(prover.pending).toBe(0);
  }, 60_000);

  it('a worker stopped with SIGTERM hands its job back at once', async () => {
    const [a, b] = [workerIdentity('a2'), workerIdentity('b2')];
    const prover = poolProver([a, b]);
    // A lease far longer than the test: only the hand-back lets b prove the job.
    const slow = await startWorker(a, { PROVE_MS: 600_000, LEASE_MS: 600_000 });
    const proving = prover.prove(validMatchV2Params());
    await until(() => slow.events.some((e) => 'proving' in e));
    const fast = await startWorker(b, { PROVE_MS: 0, LEASE_MS: 600_000 });
    slow.proc.kill('SIGTERM');
    expect(await slow.exited).toBe(0);
    await proving;
    await until(() => completions(fast) === 1);
  }, 60_000);
});
