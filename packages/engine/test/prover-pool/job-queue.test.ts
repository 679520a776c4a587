import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JOBS_CHANNEL, JobQueue, resultChannel, type NewJob } from '../../src/prover-pool/job-queue.js';
import { listenQueue } from '../../src/prover-pool/queue-listener.js';
import { startQueueDb, until, type QueueDb } from './queue-db.js';

const key = (s: string) => Buffer.from(s).toString('base64');
const job = (workers: string[], engineId = 'engine-a'): NewJob => ({
  engineId,
  bootId: 'boot-1',
  kind: 'match',
  sealedPayload: new Uint8Array([1, 2, 3]),
  sealedKeys: Object.fromEntries(workers.map((w) => [w, key(`key-for-${w}`)])),
});

describe('prover job queue', () => {
  let db: QueueDb;
  let queue: JobQueue;

  beforeAll(async () => {
    db = await startQueueDb();
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await db.pool.query('DELETE FROM prover_jobs');
    queue = new JobQueue(db.pool, { leaseMs: 60_000 });
  });

  it('gives each job to exactly one of many concurrent claimers, with its own sealed key', async () => {
    const workers = ['w1', 'w2', 'w3', 'w4'];
    const ids = await Promise.all(Array.from({ length: 12 }, () => queue.enqueue(job(workers))));
    const claims = await Promise.all(workers.flatMap((w) => [queue.claim(w, 2), queue.claim(w, 2)]));
    const claimed = claims.flatMap((c, i) => c.map((j) => ({ ...j, by: workers[i >> 1]! })));
    expect(claimed.map((c) => c.id).sort()).toEqual([...ids].sort());
    for (const c of claimed) expect(Buffer.from(c.sealedKey).toString()).toBe(`key-for-${c.by}`);
    expect(await queue.claim('w1', 10)).toEqual([]);
  });

  it('never gives a job to a worker it holds no sealed key for', async () => {
    await queue.enqueue(job(['w1']));
    expect(await queue.claim('intruder', 10)).toEqual([]);
    expect(await queue.claim('w1')).toHaveLength(1);
  });

  it('re-issues a lapsed lease to another claimer, and a heartbeat keeps one', async () => {
    const short = new JobQueue(db.pool, { leaseMs: 150 });
    const [a, b] = [await short.enqueue(job(['w1', 'w2'])), await short.enqueue(job(['w1', 'w2']))];
    expect((await short.claim('w1', 2)).map((j) => j.id)).toEqual([a, b]);
    // w1 keeps heartbeating job b only; job a's lease lapses.
    await until(async () => {
      expect(await short.heartbeat(b, 'w1')).toBe(true);
      return (await short.claim('w2', 2)).length > 0;
    });
    expect((await short.state(a))!.workerId).toBe('w2');
    expect((await short.state(b))!.workerId).toBe('w1');
    expect(await short.heartbeat(a, 'w1')).toBe(false);
  });

  it('takes the first completion and ignores later ones', async () => {
    const id = await queue.enqueue(job(['w1', 'w2']));
    await queue.claim('w1');
    expect(await queue.complete(id, 'w2', new Uint8Array([9]))).toEqual({ accepted: true });
    expect(await queue.complete(id, 'w1', new Uint8Array([8]))).toEqual({ accepted: false });
    const s = (await queue.state(id))!;
    expect(s).toMatchObject({ status: 'done', workerId: 'w2' });
    expect([...s.sealedResult!]).toEqual([9]);
    expect(await queue.cancel(id)).toBe(false);
  });

  it('requeues a failed result away from its worker', async () => {
    const id = await queue.enqueue(job(['w1', 'w2']));
    await queue.claim('w1');
    await queue.complete(id, 'w1', new Uint8Array([0]));
    expect(await queue.requeue(id, 'w1')).toBe(1);
    expect(await queue.claim('w1')).toEqual([]);
    expect(await queue.complete(id, 'w1', new Uint8Array([0]))).toEqual({ accepted: false });
    expect((await queue.claim('w2')).map((j) => j.attempts)).toEqual([1]);
  });

  it('releases, cancels and purges', async () => {
    const id = await queue.enqueue(job(['w1']));
    await queue.claim('w1');
    expect(await queue.release(id, 'w1')).toBe(true);
    expect(await queue.claim('w1')).toHaveLength(1);
    expect(await queue.cancel(id)).toBe(true);
    expect(await queue.state(id)).toBeUndefined();
    await queue.enqueue(job(['w1']));
    await queue.enqueue({ ...job(['w1']), bootId: 'boot-2' });
    await queue.enqueue(job(['w1'], 'engine-b'));
    expect(await queue.purgeOtherBoots('engine-a', 'boot-2')).toBe(1);
  });

  it('wakes a waiting worker on a new job and the engine on its completion', async () => {
    const jobs: string[] = [];
    const done: string[] = [];
    let listening = 0;
    const onJob = listenQueue(db.server.url, JOBS_CHANNEL, (p) => (p ? jobs.push(p) : listening++));
    const onDone = listenQueue(db.server.url, resultChannel('engine-a'), (p) =>
      p ? done.push(p) : listening++,
    );
    try {
      await until(() => listening === 2);
      const id = await queue.enqueue(job(['w1']));
      await until(() => jobs.includes(id));
      await queue.claim('w1');
      await queue.complete(id, 'w1', new Uint8Array([1]));
      await until(() => done.includes(id));
    } finally {
      await Promise.all([onJob.close(), onDone.close()]);
    }
  });

  it('listens again after the server comes back', async () => {
    const jobs: string[] = [];
    let connects = 0;
    const l = listenQueue(db.server.url, JOBS_CHANNEL, (p) => (p ? jobs.push(p) : connects++), {
      reconnectMs: 100,
    });
    try {
      await until(() => connects === 1);
      await db.server.stop();
      await db.server.start();
      await until(() => connects === 2, 20_000);
      const id = await queue.enqueue(job(['w1']));
      await until(() => jobs.includes(id));
    } finally {
      await l.close();
    }
  });
});
