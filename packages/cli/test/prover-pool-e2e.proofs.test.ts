/**
 * Issue 33 items 2 and 4, end to end with real processes and real proofs: an engine with a prover
 * pool on a real PostgreSQL settles a crossing pair whose VALID_MATCH v2 proof a `nightjar prover`
 * worker process made (registered through the real registration client, the engine verifying the
 * proof with the real Groth16 verifier); a worker SIGKILLed while it holds the job is replaced by
 * the other and the match settles exactly once; a worker whose attestation fails (another PKI) is
 * refused, is sealed no job and completes none.
 */
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killAll } from '@nightjar/testkit/process';
import { startPoolVenue, untilWorker, type PoolVenue, type WorkerProcess } from './prover-pool-venue.js';

let p: PoolVenue;
const started: WorkerProcess[] = [];
const start = (name: string, o?: { pkiDir?: string }) => {
  const w = p.startWorker(name, o);
  started.push(w);
  return w;
};

beforeAll(async () => {
  p = await startPoolVenue();
}, 180_000);
afterEach(async () => {
  // Each test starts its own workers: none is left registered or holding a job for the next.
  for (const w of started.splice(0)) {
    if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill('SIGTERM');
    await w.exited;
  }
});
afterAll(async () => {
  await p?.close();
  killAll();
});

const rowsOf = (jobIds: Set<string>) => p.seen.filter((r) => jobIds.has(r.id));
const jobsSince = (n: number) => new Set(p.seen.slice(n).map((r) => r.id));
const confirmed = () => p.counters().matches_confirmed ?? 0;

describe('the prover pool end to end', () => {
  it('a worker process proves the match; the engine verifies it and it confirms once', async () => {
    const w = start('good');
    await untilWorker(w, 120_000);
    expect(p.v.engine.proverPool!.workers.list().map((x) => x.workerId)).toEqual([w.workerId()]);
    const [seenBefore, confirmedBefore, checked] = [p.seen.length, confirmed(), p.ledgerMatchVerdicts.length];
    const orders = await p.placeCrossingPair();
    await p.settle(orders);
    const rows = rowsOf(jobsSince(seenBefore));
    // One match job, sealed to the one attested worker, claimed and completed by it.
    expect(new Set(rows.map((r) => r.id)).size).toBe(1);
    expect(rows.every((r) => JSON.stringify(r.sealed_to) === JSON.stringify([w.workerId()]))).toBe(true);
    expect(rows.some((r) => r.status === 'claimed' && r.worker_id === w.workerId())).toBe(true);
    expect(rows.some((r) => r.status === 'done' && r.worker_id === w.workerId())).toBe(true);
    expect(confirmed() - confirmedBefore).toBe(1);
    expect(p.counters()).toMatchObject({ proofs_failed: 0, proofs_refused_by_local_verifier: 0 });
    // The ledger checked the worker's proof with the real verifier once, and spent both notes.
    expect(p.ledgerMatchVerdicts.slice(checked)).toEqual([true]);
    expect(await p.noteStates(orders.notes)).toEqual(['spent', 'spent']);
    // The engine took the result: the job left the table.
    expect((await p.queue.query('SELECT 1 FROM prover_jobs')).rowCount).toBe(0);
  }, 300_000);

  it('a worker SIGKILLed holding the job: the other proves it, the match settles exactly once', async () => {
    const [a, b] = [start('kill-a'), start('kill-b')];
    await Promise.all([untilWorker(a, 120_000), untilWorker(b, 120_000)]);
    const [seenBefore, confirmedBefore, checked] = [p.seen.length, confirmed(), p.ledgerMatchVerdicts.length];
    const settlesBefore = p.counters().settle_transactions ?? 0;
    const orders = await p.placeCrossingPair();
    // The clock runs (the locks land) while the test waits for the job's claim.
    const settled = p.settle(orders, 240_000);
    settled.catch(() => {});
    // Whichever worker claimed the job is killed, mid-proof.
    const deadline = Date.now() + 120_000;
    let holder: string | null | undefined;
    while (!holder) {
      if (Date.now() > deadline) throw new Error('no worker claimed the job');
      const r = await p.queue.query<{ worker_id: string | null }>(
        `SELECT worker_id FROM prover_jobs WHERE status = 'claimed'`,
      );
      holder = r.rows[0]?.worker_id;
      await new Promise((r) => setTimeout(r, 20));
    }
    const [dead, survivor] = holder === a.workerId() ? [a, b] : [b, a];
    dead.proc.kill('SIGKILL');
    expect(await dead.exited).toBe('SIGKILL');
    await settled;
    const rows = rowsOf(jobsSince(seenBefore));
    expect(new Set(rows.map((r) => r.id)).size).toBe(1);
    expect(rows.some((r) => r.status === 'claimed' && r.worker_id === dead.workerId())).toBe(true);
    expect(rows.some((r) => r.status === 'done' && r.worker_id === survivor.workerId())).toBe(true);
    expect(rows.some((r) => r.status === 'done' && r.worker_id === dead.workerId())).toBe(false);
    // Settled exactly once on the ledger, and nothing is left claimed by the dead worker.
    expect(confirmed() - confirmedBefore).toBe(1);
    expect((p.counters().settle_transactions ?? 0) - settlesBefore).toBe(1);
    expect(p.ledgerMatchVerdicts.slice(checked)).toEqual([true]);
    expect(await p.noteStates(orders.notes)).toEqual(['spent', 'spent']);
    expect(p.counters()).toMatchObject({ proofs_failed: 0 });
    const left = await p.queue.query(`SELECT 1 FROM prover_jobs WHERE worker_id = $1`, [dead.workerId()]);
    expect(left.rowCount).toBe(0);
  }, 400_000);

  it('a worker under a PKI the engine does not pin is refused, sealed nothing and completes nothing', async () => {
    const otherPki = join(mkdtempSync(join(tmpdir(), 'nightjar-other-pki-')), 'pki');
    const bad = start('bad', { pkiDir: otherPki });
    const exit = await bad.exited;
    expect(exit).not.toBe(0);
    // Check (a): its quote does not chain to the pinned platform root.
    expect(bad.output()).toMatch(/refused this worker \(403\): attestation check \(a\)/);
    expect(bad.workerId()).toBeUndefined();
    const good = start('good-2');
    await untilWorker(good, 120_000);
    // Only the good worker is attested (the earlier tests' workers stopped; the registry keeps
    // them until their registrations lapse, so compare against what it lists now).
    const attested = p.v.engine.proverPool!.workers.list().map((x) => x.workerId);
    expect(attested).toContain(good.workerId());
    const seenBefore = p.seen.length;
    await p.settle(await p.placeCrossingPair());
    const rows = rowsOf(jobsSince(seenBefore));
    expect(rows.length).toBeGreaterThan(0);
    // Every job was sealed to attested workers only, and done by the good one.
    for (const r of rows) for (const id of r.sealed_to) expect(attested).toContain(id);
    expect(rows.filter((r) => r.status === 'done').map((r) => r.worker_id)).toEqual([good.workerId()]);
  }, 300_000);
});
