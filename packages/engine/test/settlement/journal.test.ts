/**
 * The journal is never taken for an empty one when the data directory says it existed, and a row
 * that fails authentication (edited, moved, or written without the settlement key) stops it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { JOURNAL_FILE, JournalDamagedError, SettlementJournal } from '../../src/settlement/journal.js';
import { RowMac } from '../../src/settlement/journal-mac.js';
import { RowSeal, SEALED_PREFIX } from '../../src/settlement/journal-seal.js';
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

  it('refuses a job whose body was replaced by a plan with a redirected output', () => {
    const d = journaled();
    const redirected = job(7n);
    redirected.plan.bid = {
      ...party,
      outputs: [{ ...party.outputs[0]!, opening_hash: 'bb'.repeat(32), amount: '6' }],
    };
    edit(d, 'UPDATE jobs SET body = ?', JSON.stringify({ ...redirected, batchId: '7' }));
    expect(() => keyed(d, true)).toThrow(/job 7\/0 fails authentication/);
  });
  it('refuses a job whose sealed body was altered by one bit', () => {
    const d = journaled();
    const db = new Database(join(d, JOURNAL_FILE));
    const body = db.prepare('SELECT body FROM jobs WHERE batch_id = 7').pluck().get() as string;
    expect(body.startsWith(SEALED_PREFIX)).toBe(true);
    const bytes = Buffer.from(body.slice(SEALED_PREFIX.length), 'base64');
    bytes[20]! ^= 1;
    db.prepare('UPDATE jobs SET body = ?').run(SEALED_PREFIX + bytes.toString('base64'));
    db.close();
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

/** An opening as a plan holds it: distinctive 32-byte values, so any copy of them on disk is found. */
function opening() {
  const hex = () => randomBytes(32).toString('hex');
  const input = { commitment: hex(), amount: '123456789', ownerCommitment: hex(), innerHash: hex() };
  const out = { ...party.outputs[0]!, opening_hash: hex(), inner: hex(), commitment: hex() };
  const secrets = [input.ownerCommitment, input.innerHash, out.inner, out.opening_hash];
  return { plan: { ...party, input, outputs: [out] }, secrets };
}

/** Every byte the journal keeps on disk (database, write-ahead log, shared memory). */
function journalBytes(d: string): Buffer {
  const file = join(d, JOURNAL_FILE);
  return Buffer.concat(
    [file, `${file}-wal`, `${file}-shm`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
  );
}

function expectNoneOf(bytes: Buffer, secrets: string[]): void {
  for (const hex of secrets) {
    expect([hex, bytes.includes(hex)]).toEqual([hex, false]);
    expect([hex, bytes.includes(Buffer.from(hex, 'hex'))]).toEqual([hex, false]);
  }
}

describe('the journal at rest (issue 28 item 2)', () => {
  it('is a 0600 file whose rows show no opening, open or finished', () => {
    const d = dir();
    const j = keyed(d, false);
    const { plan, secrets } = opening();
    const open = { ...job(9n), plan: { ...job(9n).plan, bid: plan } };
    j.write([open], [{ tx: { ...tx, signature: 'sig9' }, batchId: 9n, kind: 'settle' }]);
    // While the journal is open (rows in the write-ahead log) and after it is closed.
    expectNoneOf(journalBytes(d), secrets);
    j.close();
    for (const f of [JOURNAL_FILE]) expect(statSync(join(d, f)).mode & 0o777).toBe(0o600);
    expectNoneOf(journalBytes(d), secrets);
    const again = keyed(d, true);
    expect(again.openJobs()[0]!.plan.bid.input.ownerCommitment).toBe(plan.input.ownerCommitment);
    again.close();
  });

  it('keeps only the status record of a finished match: its row holds no opening, even to the key holder', () => {
    const d = dir();
    const j = keyed(d, false);
    const { plan, secrets } = opening();
    const open = { ...job(11n), plan: { ...job(11n).plan, bid: plan } };
    j.write([open]);
    const done = { ...open, stage: 'done' as const, outcome: 'confirmed' as const, confirmedSignature: 'cs' };
    j.write([done]);
    j.close();
    expectNoneOf(journalBytes(d), secrets);
    // Opened with the settlement key itself, the row is the status record and nothing more.
    const db = new Database(join(d, JOURNAL_FILE));
    const row = db.prepare('SELECT * FROM jobs WHERE batch_id = 11').get() as {
      batch_id: number;
      match_idx: number;
      terminal: number;
      body: string;
    };
    db.close();
    const plain = new RowSeal(SECRET).open('jobs', [row.batch_id, row.match_idx, row.terminal], row.body)!;
    expect(JSON.parse(plain)).toEqual({
      batchId: '11',
      marketId: 'm',
      plan: { matchIdx: 0, matchId: '1' },
      stage: 'done',
      outcome: 'confirmed',
      createdAtMs: 1,
      updatedAtMs: 2,
      confirmedSignature: 'cs',
    });
    const again = keyed(d, true);
    expect(again.recentTerminalJobs(10)).toEqual([
      {
        batchId: 11n,
        marketId: 'm',
        plan: { matchIdx: 0, matchId: '1' },
        stage: 'done',
        outcome: 'confirmed',
        createdAtMs: 1,
        updatedAtMs: 2,
        confirmedSignature: 'cs',
      },
    ]);
    again.close();
  });

  it('seals the plain rows of a journal written before sealing, and drops a finished plan', () => {
    const d = dir();
    keyed(d, false).close();
    const { plan, secrets } = opening();
    const open = { ...job(12n), plan: { ...job(12n).plan, bid: plan }, batchId: '12' };
    const done = { ...open, plan: { ...open.plan, matchIdx: 1 }, stage: 'done', outcome: 'confirmed' };
    const mac = new RowMac(SECRET);
    const db = new Database(join(d, JOURNAL_FILE));
    for (const [j, terminal] of [
      [open, 0],
      [done, 1],
    ] as const) {
      const body = JSON.stringify(j);
      const tag = mac.tag('jobs', [12, j.plan.matchIdx, terminal, body]);
      db.prepare('INSERT INTO jobs VALUES (12, ?, ?, ?, ?)').run(j.plan.matchIdx, terminal, body, tag);
    }
    db.close();
    expect(journalBytes(d).includes(secrets[0]!)).toBe(true);
    const again = keyed(d, true);
    expect(again.openJobs().map((x) => x.plan.bid.input.innerHash)).toEqual([plan.input.innerHash]);
    const finished = again.recentTerminalJobs(10).filter((x) => x.stage === 'done');
    expect(finished.map((x) => Object.keys(x.plan))).toEqual([['matchIdx', 'matchId']]);
    again.close();
    // The open job's plan stays, sealed; no page or log frame keeps the plain rows.
    expectNoneOf(journalBytes(d), secrets);
  });
});
