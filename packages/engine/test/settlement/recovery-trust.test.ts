/**
 * Restart reconciliation that trusts neither an undecided ledger nor the journal file: the engine
 * runs as a child process, SIGKILLed mid-settlement, and restarts on the same data directory.
 * - While the ledger refuses the recovery's nonce fence, the journaled match stays open (status
 *   record, in-flight count) across a planned stop too; once the fence lands it settles once.
 * - A journaled output edited on disk (redirected to another owner, amount changed) stops the
 *   engine at start; nothing reaches the ledger.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveNote, ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import { fieldToHex, parseAddress } from '@nightjar/protocol';
import {
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  RpcLedgerClient,
  serveLedger,
  type LedgerServer,
} from '@nightjar/ledger';
import { JOURNAL_FILE, SettlementJournal } from '../../src/settlement/journal.js';
import type { JobState } from '../../src/settlement/types.js';
import { login, type TestVenue, HttpsClient } from '@nightjar/testkit';
import { killEngineProcesses, startEngineProcess, type EngineChild } from '@nightjar/testkit/process';
import { crashMidSettlement } from './crash-scenario.js';
import { nullifierOf } from './venue-helpers.js';
import { preparedDataDir } from './engine-process.js';
import { StreamClient } from '../stream/stream-client.js';
import { loadOrCreateTeeKey } from '../../src/settlement/tee-key.js';
import { RowSeal } from '../../src/settlement/journal-seal.js';

let ledger: Ledger;
let server: LedgerServer;
let rpc: RpcLedgerClient;
const devKeys = loadOrCreateDevKeys(undefined);
const dirs: string[] = [];

beforeAll(async () => {
  ledger = Ledger.open({ clock: { mode: 'manual' }, dev: true, verifier: { verify: async () => true } });
  await ensureDevGenesis(ledger, devKeys);
  await ledger.advanceSlots({ slots: 40 });
  server = await serveLedger(ledger, { port: 0 });
  rpc = new RpcLedgerClient(server.url, { devSecret: server.devSecret });
});
afterAll(async () => {
  killEngineProcesses();
  await rpc.setFaults({ rejectRate: 0 });
  await server.close();
  await ledger.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Counts the transactions `signer` sends with `instruction` (the fence is a `release_lock`). */
function countSends(signer: string, instruction: string): { count: number; stop(): void } {
  const original = ledger.sendTransaction.bind(ledger);
  const counter = {
    count: 0,
    stop: () => {
      ledger.sendTransaction = original;
    },
  };
  ledger.sendTransaction = (params) => {
    const tx = params.transaction;
    if (tx.signer === signer && tx.instruction.name === instruction) counter.count += 1;
    return original(params);
  };
  return counter;
}

async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The child's admin view: the batch's status record and the settlement metrics. */
async function observe(child: EngineChild, admin: NonNullable<EngineChild['admin']>) {
  const client = new HttpsClient(child.url, child.cert);
  const token = await login(client, admin);
  return {
    client,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies read field by field
    metrics: async (): Promise<Record<string, any>> =>
      (await client.send('/admin/metrics/settlement', { token })).body,
    status: (batchId: bigint) => client.send(`/settlement/status/${batchId}`, { token }),
  };
}

/** Enough of a TestVenue for a stream client on the child. */
const streamVenue = (child: EngineChild) =>
  ({ engine: { url: child.url, certificate: { certPem: child.cert } } }) as unknown as TestVenue;

/** The journal's job rows, their sealed bodies opened with the settlement key (journal-seal.ts). */
function journaledJobs(dataDir: string): { batch_id: number; job: JobState }[] {
  const seal = new RowSeal(loadOrCreateTeeKey(dataDir).seed);
  const db = new Database(join(dataDir, JOURNAL_FILE), { readonly: true });
  const rows = db.prepare('SELECT batch_id, match_idx, terminal, body FROM jobs').all() as {
    batch_id: number;
    match_idx: number;
    terminal: number;
    body: string;
  }[];
  db.close();
  return rows.map((r) => ({
    batch_id: r.batch_id,
    job: JSON.parse(seal.open('jobs', [r.batch_id, r.match_idx, r.terminal], r.body)!) as JobState,
  }));
}

/** No note's owner commitment or inner hash, hex or raw, anywhere in the journal's files. */
function expectNoOpening(dataDir: string, notes: { ownerCommitment: string; innerHash: string }[]): void {
  const file = join(dataDir, JOURNAL_FILE);
  const bytes = Buffer.concat(
    [file, `${file}-wal`, `${file}-shm`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
  );
  for (const hex of notes.flatMap((n) => [n.ownerCommitment, n.innerHash])) {
    expect([hex, bytes.includes(hex)]).toEqual([hex, false]);
    expect([hex, bytes.includes(Buffer.from(hex, 'hex'))]).toEqual([hex, false]);
  }
}

describe('restart reconciliation', () => {
  it('keeps matches open while the ledger refuses the fence, then settles them once', async () => {
    const dataDir = await preparedDataDir(ledger, devKeys.adminSeed);
    dirs.push(dataDir);
    const key = loadOrCreateTeeKey(dataDir);
    const env = { LEDGER_URL: server.url, DATA_DIR: dataDir };
    // Killed with the settle transaction journaled but not sent; both inputs locked.
    const crashed = await crashMidSettlement(ledger, env, 'settling');
    const batchId = BigInt(journaledJobs(dataDir)[0]!.batch_id);
    const inputs = [nullifierOf(crashed.usdc), nullifierOf(crashed.sol)];
    const memosBefore = crashed.memosBefore;

    await rpc.setFaults({ rejectRate: 1 });
    const fences = countSends(key.address, 'release_lock');
    try {
      for (const round of ['running', 'after a planned stop']) {
        const child = await startEngineProcess(env);
        const view = await observe(child, crashed.admin);
        // Past one whole landing budget of refused fences (rebroadcast every 300 ms, 3 s budget).
        const seen = fences.count;
        await until(`refused fences (${round})`, () => fences.count >= seen + 12);
        const status = await view.status(batchId);
        expect(status.status).toBe(200);
        expect(status.body.jobs).toHaveLength(1);
        expect(['done', 'failed']).not.toContain(status.body.jobs[0].stage);
        expect(status.body.jobs[0].outcome).not.toBe('rejected');
        const metrics = await view.metrics();
        expect(metrics.in_flight_matches).toBe(1);
        expect(metrics.counters.matches_rejected).toBe(0);
        expect(metrics.counters.recovery_released).toBe(0);
        expect((await ledger.getNoteStatuses({ nullifiers: inputs })).map((s) => s.state)).toEqual([
          'locked',
          'locked',
        ]);
        if (round === 'running') {
          // A planned stop while the fence is refused judges nothing: the journal keeps it open.
          child.proc.kill('SIGTERM');
          await child.exited;
          view.client.close();
          expect(journaledJobs(dataDir).map((r) => r.job.stage)).toEqual(['settling']);
          // The open plan holds both inputs' openings, sealed: none of them is on disk (28.2).
          expectNoOpening(dataDir, [crashed.usdc, crashed.sol]);
          continue;
        }
        // Alice listens for fills on the restarted engine: recovery's confirmation reaches her.
        const fills = await StreamClient.login(
          streamVenue(child),
          await login(view.client, crashed.aliceCredentials),
        );
        await fills.request({ op: 'subscribe', channels: ['fills'] });
        // The ledger takes transactions again: the fence lands, the match is redriven once.
        await rpc.setFaults({ rejectRate: 0 });
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body
        let m: Record<string, any> = {};
        await until('reconciliation', async () => {
          await ledger.advanceSlots({ slots: 1 });
          m = await view.metrics();
          return m.counters.recovery_redriven === 1 && m.in_flight_matches === 0;
        });
        expect(m.counters.matches_confirmed).toBe(1);
        expect(m.counters.matches_rejected).toBe(0);
        const final = await view.status(batchId);
        expect(final.body.jobs[0]).toMatchObject({ stage: 'done', outcome: 'confirmed' });
        const memos = (await ledger.getMemos({ from: memosBefore, to: memosBefore + 100 })).memos;
        expect(await fills.find((f) => f.channel === 'fills')).toMatchObject({
          order_id: crashed.bid.order_id,
          match_id: final.body.jobs[0].match_id,
          batch_id: Number(batchId),
          outcome: 'confirmed',
          memo: expect.toSatisfy((memo: string) => memos.some((m) => m.memo === memo)),
        });
        await fills.close();
        child.proc.kill('SIGTERM');
        await child.exited;
        view.client.close();
        // Finished: its row keeps the status record only, no opening even to the key holder.
        expect(journaledJobs(dataDir).map((r) => Object.keys(r.job.plan))).toEqual([['matchIdx', 'matchId']]);
        expectNoOpening(dataDir, [crashed.usdc, crashed.sol]);
      }
    } finally {
      fences.stop();
      await rpc.setFaults({ rejectRate: 0 });
    }
    // Both inputs consumed exactly once, one memo per party, value conserved per mint.
    expect((await ledger.getNoteStatuses({ nullifiers: inputs })).map((s) => s.state)).toEqual([
      'spent',
      'spent',
    ]);
    expect((await ledger.getMemos({ from: memosBefore, to: memosBefore + 100 })).memos).toHaveLength(2);
    for (const mint of (await ledger.getSolvency()).mints)
      expect(mint.vault_balance).toBe(mint.outstanding_note_value);
  }, 60_000);

  it('refuses a journal whose outputs were redirected on disk; nothing is paid out', async () => {
    const dataDir = await preparedDataDir(ledger, devKeys.adminSeed);
    dirs.push(dataDir);
    const env = { LEDGER_URL: server.url, DATA_DIR: dataDir };
    // Killed with the plan and memos journaled and both inputs locked: a redrive would sign it.
    const crashed = await crashMidSettlement(ledger, env, 'verifying');
    const leavesBefore = (await ledger.getTreeRoot({ tree_id: 0 })).leaf_count;

    // The attacker rewrites the bid's trade-out (1 SOL) to a note it owns, and adds to its amount
    // (the body is sealed: the plan is read here with the key, as if the attacker knew it, and
    // written back in the clear, since only the engine can seal).
    const row = journaledJobs(dataDir)[0]!;
    const job = row.job;
    const out = job.plan.bid.outputs.find((o) => o.role === 1)!;
    const stolen = deriveNote({
      mint: parseAddress(out.mint)!,
      amount: BigInt(out.amount) + 1n,
      ownerCommitment: ownerCommitment(randomFieldElement()),
      noteInnerHash: BigInt('0x' + out.inner),
    });
    out.opening_hash = fieldToHex(stolen.openingHash);
    out.commitment = fieldToHex(stolen.noteCommitment);
    out.amount = (BigInt(out.amount) + 1n).toString();
    // The seller's change pays for it, so the plan still balances per mint (ledger and engine check).
    const change = job.plan.ask.outputs.find((o) => o.role === 2)!;
    change.amount = (BigInt(change.amount) - 1n).toString();
    job.plan.bid.tradeAmount = out.amount;
    job.plan.ask.changeAmount = change.amount;
    const db = new Database(join(dataDir, JOURNAL_FILE));
    db.prepare('UPDATE jobs SET body = ? WHERE batch_id = ?').run(JSON.stringify(job), row.batch_id);
    db.close();

    await expect(startEngineProcess(env)).rejects.toThrow(
      /settlement journal: job \d+\/0 fails authentication/,
    );

    // Nothing reached the ledger: no output, no memo, both inputs unspent (their locks expire).
    await ledger.advanceSlots({ slots: 200 });
    expect((await ledger.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(leavesBefore);
    const leaves = await ledger.getLeaves({ tree_id: 0, from: 0, to: leavesBefore });
    expect(leaves.leaves.map((l) => l.value)).not.toContain(fieldToHex(stolen.noteCommitment));
    const memos = await ledger.getMemos({ from: crashed.memosBefore, to: crashed.memosBefore + 100 });
    expect(memos.memos).toHaveLength(0);
    const states = await ledger.getNoteStatuses({
      nullifiers: [nullifierOf(crashed.usdc), nullifierOf(crashed.sol)],
    });
    expect(states.map((s) => s.state)).toEqual(['free', 'free']);
  }, 60_000);

  it('checks a redriven plan for value conservation again before signing it', async () => {
    const dataDir = await preparedDataDir(ledger, devKeys.adminSeed);
    dirs.push(dataDir);
    const key = loadOrCreateTeeKey(dataDir);
    const env = { LEDGER_URL: server.url, DATA_DIR: dataDir };
    const crashed = await crashMidSettlement(ledger, env, 'verifying');

    // A row that authenticates but creates a unit from nothing (as a faulty older engine might
    // have journaled it): rewritten through the journal itself, with the settlement key.
    const journal = new SettlementJournal(dataDir, true);
    journal.authenticate(key.seed);
    const [job] = journal.openJobs();
    const out = job!.plan.bid.outputs.find((o) => o.role === 1)!;
    out.amount = (BigInt(out.amount) + 1n).toString();
    journal.write([job!]);
    journal.close();

    const settles = countSends(key.address, 'settle_batch');
    try {
      const child = await startEngineProcess(env);
      const view = await observe(child, crashed.admin);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body
      let m: Record<string, any> = {};
      await until('reconciliation', async () => {
        await ledger.advanceSlots({ slots: 1 });
        m = await view.metrics();
        return m.counters.recovery_redriven === 1 && m.in_flight_matches === 0;
      });
      expect(m.counters.matches_rejected).toBe(1);
      const status = await view.status(job!.batchId);
      expect(status.body.jobs[0]).toMatchObject({
        stage: 'failed',
        outcome: 'rejected',
        reason: 'settlement_rejected',
      });
      child.proc.kill('SIGTERM');
      await child.exited;
      view.client.close();
    } finally {
      settles.stop();
    }
    // Nothing was signed for it: no settle transaction, both inputs unspent.
    expect(settles.count).toBe(0);
    const states = await ledger.getNoteStatuses({
      nullifiers: [nullifierOf(crashed.usdc), nullifierOf(crashed.sol)],
    });
    expect(states.map((s) => s.state)).not.toContain('spent');
  }, 60_000);
});
