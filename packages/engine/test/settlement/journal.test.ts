/**
 * The journal is never taken for an empty one when the data directory says it existed, and a row
 * that fails authentication (edited, moved, or written without the settlement key) stops it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { JOURNAL_FILE, JournalDamagedError, SettlementJournal } from '../../src/settlement/journal.js';
import { jobState } from './jobs.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'nightjar-journal-'));
  dirs.push(d);
  return d;
};
const SECRET = Uint8Array.from(randomBytes(32));
const keyed = (d: string, mustExist: boolean, secret = SECRET) => {
  const j = new SettlementJournal(d, mustExist);
  try {
    j.authenticate(secret);
  } catch (err) {
    j.close();
    throw err;
  }
  return j;
};

const party = {
  orderId: '00'.repeat(16),
  accountId: 'a',
  side: 'bid' as const,
  treeId: 0,
  viewingPubkey: '',
  inputNullifier: '01',
  input: { commitment: '02', amount: '5', ownerCommitment: '03', innerHash: '04' },
  lockUntilSlot: '10',
  outputs: [
    {
      role: 1 as const,
      slot: 0 as const,
      tree_id: 0,
      mint: 'M',
      amount: '5',
      opening_hash: 'aa'.repeat(32),
      inner: '01',
      commitment: '07',
    },
  ],
  tradeAmount: '5',
  changeAmount: '0',
  feeAmount: '0',
  newAmount: '0',
  filledAfter: '0',
  continues: false,
};
const job = (batchId: bigint, matchIdx = 0) => ({
  batchId,
  marketId: 'm',
  plan: {
    matchIdx,
    matchId: String(matchIdx + 1),
    quantity: '1',
    price: '1',
    bid: party,
    ask: { ...party, side: 'ask' as const },
  },
  stage: 'settling' as const,
  outcome: 'pending' as const,
  createdAtMs: 1,
  updatedAtMs: 2,
  lockSignatures: [],
  settleSignatures: ['s'],
});
const tx = { signer: 'x', nonce: '42', instruction: { name: 'n', args: {} }, signature: 's' };

/** A journal holding one open job (batch 7) and its transaction, closed; returns its directory. */
function journaled(): string {
  const d = dir();
  const j = keyed(d, false);
  j.write([job(7n)], [{ tx, batchId: 7n, kind: 'settle' }]);
  j.close();
  return d;
}

function edit(d: string, sql: string, ...params: unknown[]): void {
  const db = new Database(join(d, JOURNAL_FILE));
  db.prepare(sql).run(...params);
  db.close();
}

describe('settlement journal', () => {
  it('a missing journal where one existed is an error', () => {
    expect(() => new SettlementJournal(dir(), true)).toThrow(JournalDamagedError);
  });
  it('a damaged journal file is an error', () => {
    const d = dir();
    writeFileSync(join(d, JOURNAL_FILE), Buffer.alloc(8192, 0x5a));
    expect(() => keyed(d, false)).toThrow(JournalDamagedError);
  });
  it('keeps jobs, nonces and batch ids across reopen', () => {
    const d = dir();
    const j = keyed(d, false);
    j.write(
      [jobState(0, {}, {}, { settleSignatures: ['s'] })],
      [
        {
          tx: { signer: 'x', nonce: '42', instruction: { name: 'n', args: {} }, signature: 's' },
          batchId: 7n,
          kind: 'settle',
        },
      ],
    );
    j.close();
    const again = keyed(d, true);
    expect(again.maxBatchId()).toBe(7n);
    // Match ids are per market and never repeat across boots: the next boot starts past them.
    expect(again.lastMatchId('m')).toBe(1n);
    expect(again.lastMatchId('another market')).toBe(0n);
    expect(again.maxNonce()).toBe(42n);
    expect(again.openJobs().map((x) => [x.batchId, x.stage])).toEqual([[7n, 'settling']]);
    again.close();
  });

  it('refuses a job whose journaled output was redirected', () => {
    const d = journaled();
    edit(d, `UPDATE jobs SET body = replace(body, '${'aa'.repeat(32)}', '${'bb'.repeat(32)}')`);
    expect(() => keyed(d, true)).toThrow(/job 7\/0 fails authentication/);
  });
  it('refuses a job whose amount was changed', () => {
    const d = journaled();
    edit(d, `UPDATE jobs SET body = replace(body, '"amount":"5"', '"amount":"6"') WHERE batch_id = 7`);
    expect(() => keyed(d, true)).toThrow(JournalDamagedError);
  });
  it('refuses a row moved to another key, and a journal read with another settlement key', () => {
    const d = journaled();
    edit(d, 'UPDATE jobs SET match_idx = 1 WHERE batch_id = 7');
    expect(() => keyed(d, true)).toThrow(JournalDamagedError);
    const other = journaled();
    expect(() => keyed(other, true, Uint8Array.from(randomBytes(32)))).toThrow(JournalDamagedError);
  });
  it('refuses an edited transaction or match-id floor', () => {
    const d = journaled();
    edit(d, `UPDATE txs SET nonce = '1'`);
    expect(() => keyed(d, true)).toThrow(/transaction row of batch 7/);
    const e = journaled();
    edit(e, `UPDATE meta SET value = '0'`);
    expect(() => keyed(e, true)).toThrow(/meta row last_match_id:m/);
  });
  it('a journal from before authentication: an open job refuses the start, history is dropped', () => {
    const d = journaled();
    edit(d, 'UPDATE jobs SET mac = NULL');
    expect(() => keyed(d, true)).toThrow(/without authentication/);

    // Only terminal history and transactions unauthenticated: dropped; match ids still continue.
    const e = dir();
    const db = new Database(join(e, JOURNAL_FILE));
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE jobs (batch_id INTEGER NOT NULL, match_idx INTEGER NOT NULL, terminal INTEGER NOT NULL,
        body TEXT NOT NULL, PRIMARY KEY (batch_id, match_idx));
      CREATE TABLE txs (signature TEXT PRIMARY KEY, batch_id INTEGER NOT NULL, kind TEXT NOT NULL,
        nonce TEXT NOT NULL, body TEXT NOT NULL);`);
    db.prepare('INSERT INTO jobs VALUES (3, 0, 1, ?)').run(
      JSON.stringify({ ...job(3n), batchId: '3', stage: 'done' }),
    );
    db.prepare(`INSERT INTO txs VALUES ('t', 3, 'settle', '9', '{}')`).run();
    db.prepare(`INSERT INTO meta VALUES ('last_match_id:m', '12')`).run();
    db.close();
    const j = keyed(e, true);
    expect(j.recentTerminalJobs(10)).toEqual([]);
    expect(j.maxNonce()).toBe(0n);
    expect(j.lastMatchId('m')).toBe(12n);
    j.write([job(4n)]);
    j.close();
    const again = keyed(e, true);
    expect(again.openJobs().map((x) => x.batchId)).toEqual([4n]);
    again.close();
  });
});
