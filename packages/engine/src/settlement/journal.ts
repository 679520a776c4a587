/**
 * The settlement journal: its own SQLite file (`settlement.sqlite`, mode 0600, synchronous = FULL),
 * written before the first ledger side effect of a batch and at every stage, and holding every
 * signed transaction before it is sent. A restart reads it back to reconcile against the ledger
 * (recovery.ts). A missing or damaged journal where one existed is an error, never an empty one,
 * and so is a row that fails authentication (journal-mac.ts): an edited journal stops the engine.
 * Bodies are sealed (journal-seal.ts): the file shows no opening, amount or account. A finished
 * match's row keeps only its status record ({@link FinishedJob}), never its plan; rows are deleted
 * and rewritten with secure_delete and the log truncated once a match finishes, so no old page
 * keeps a finished order's opening.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite, type SqliteDb, type Transaction } from '@nightjar/ledger';
import { preparePrivateDatabase } from '@nightjar/protocol';
import { RowMac } from './journal-mac.js';
import { RowSeal, SEALED_PREFIX } from './journal-seal.js';
import { finishedJob, type FinishedJob } from './status-history.js';
import { TERMINAL_STAGES, type JobState } from './types.js';

export const JOURNAL_FILE = 'settlement.sqlite';

export class JournalDamagedError extends Error {
  constructor(message: string) {
    super(`settlement journal: ${message}`);
    this.name = 'JournalDamagedError';
  }
}

type JobRow = { batch_id: number; match_idx: number; terminal: number; body: string; mac: string | null };
type TxRow = {
  signature: string;
  batch_id: number;
  kind: string;
  nonce: string;
  body: string;
  mac: string | null;
};
type MetaRow = { key: string; value: string; mac: string | null };

/** A row's identity: the associated data of its sealed body. */
const jobIdentity = (r: JobRow) => [r.batch_id, r.match_idx, r.terminal] as const;
const txIdentity = (r: TxRow) => [r.signature, r.batch_id, r.kind, r.nonce] as const;
const jobFields = (r: JobRow) => [...jobIdentity(r), r.body] as const;
const txFields = (r: TxRow) => [...txIdentity(r), r.body] as const;
const metaFields = (r: MetaRow) => [r.key, r.value] as const;

export class SettlementJournal {
  private readonly db: SqliteDb;
  private readonly stmts;
  private rowMac: RowMac | undefined;
  private rowSeal: RowSeal | undefined;
  /** Durations of the last journal writes in ms (bounded; for metrics and the benchmark). */
  readonly writeMs: number[] = [];

  /**
   * `mustExist`: the data directory says a journal was created before (its settlement key
   * exists), so a missing file is damage, not a fresh start. Nothing is read or written before
   * `authenticate`.
   */
  constructor(dataDir: string | undefined, mustExist: boolean) {
    const file = dataDir === undefined ? ':memory:' : join(dataDir, JOURNAL_FILE);
    if (dataDir !== undefined && mustExist && !existsSync(file))
      throw new JournalDamagedError(`${file} is missing but the data directory has a settlement key`);
    // Refuses a file another user owns; creates it (and its -wal/-shm) 0600: rows hold note openings.
    if (dataDir !== undefined) preparePrivateDatabase(file);
    try {
      this.db = openSqlite(file);
      // Deleted and rewritten rows are zeroed on disk, not left in free pages.
      this.db.pragma('secure_delete = ON');
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      const check = this.db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(String(check));
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL, mac TEXT);
        CREATE TABLE IF NOT EXISTS jobs (
          batch_id INTEGER NOT NULL, match_idx INTEGER NOT NULL, terminal INTEGER NOT NULL,
          body TEXT NOT NULL, mac TEXT, PRIMARY KEY (batch_id, match_idx));
        CREATE INDEX IF NOT EXISTS jobs_open ON jobs (terminal, batch_id);
        CREATE TABLE IF NOT EXISTS txs (
          signature TEXT PRIMARY KEY, batch_id INTEGER NOT NULL, kind TEXT NOT NULL,
          nonce TEXT NOT NULL, body TEXT NOT NULL, mac TEXT);
        CREATE INDEX IF NOT EXISTS txs_batch ON txs (batch_id);
      `);
      // Journals from before row authentication: the column is added, the rows adopted below.
      for (const table of ['jobs', 'txs', 'meta']) {
        const cols = this.db.pragma(`table_info(${table})`) as { name: string }[];
        if (!cols.some((c) => c.name === 'mac')) this.db.exec(`ALTER TABLE ${table} ADD COLUMN mac TEXT`);
      }
    } catch (err) {
      throw new JournalDamagedError(`cannot be read (${err instanceof Error ? err.message : 'unknown'})`);
    }
    this.stmts = {
      upsertJob: this.db.prepare(
        'INSERT INTO jobs (batch_id, match_idx, terminal, body, mac) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT (batch_id, match_idx) DO UPDATE SET terminal = excluded.terminal, ' +
          'body = excluded.body, mac = excluded.mac',
      ),
      allJobs: this.db.prepare('SELECT * FROM jobs'),
      allTxs: this.db.prepare('SELECT * FROM txs'),
      unsealedJobs: this.db.prepare(`SELECT * FROM jobs WHERE substr(body, 1, ${SEALED_PREFIX.length}) != ?`),
      unsealedTxs: this.db.prepare(`SELECT * FROM txs WHERE substr(body, 1, ${SEALED_PREFIX.length}) != ?`),
      allMeta: this.db.prepare('SELECT * FROM meta'),
      openJobs: this.db.prepare('SELECT * FROM jobs WHERE terminal = 0 ORDER BY batch_id, match_idx'),
      recentTerminal: this.db.prepare(
        'SELECT * FROM jobs WHERE batch_id IN (SELECT DISTINCT batch_id FROM jobs WHERE terminal = 1 ' +
          'ORDER BY batch_id DESC LIMIT ?) ORDER BY batch_id, match_idx',
      ),
      maxBatch: this.db.prepare('SELECT MAX(batch_id) FROM jobs').pluck(),
      insertTx: this.db.prepare(
        'INSERT OR REPLACE INTO txs (signature, batch_id, kind, nonce, body, mac) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      maxNonce: this.db.prepare('SELECT nonce FROM txs ORDER BY CAST(nonce AS INTEGER) DESC LIMIT 1').pluck(),
      getMeta: this.db.prepare('SELECT * FROM meta WHERE key = ?'),
      setMeta: this.db.prepare(
        'INSERT INTO meta (key, value, mac) VALUES (?, ?, ?) ' +
          'ON CONFLICT (key) DO UPDATE SET value = excluded.value, mac = excluded.mac',
      ),
      legacyOpenJobs: this.db.prepare('SELECT COUNT(*) FROM jobs WHERE mac IS NULL AND terminal = 0').pluck(),
      dropLegacyJobs: this.db.prepare('DELETE FROM jobs WHERE mac IS NULL AND terminal = 1'),
      dropLegacyTxs: this.db.prepare('DELETE FROM txs WHERE mac IS NULL'),
      legacyMeta: this.db.prepare('SELECT * FROM meta WHERE mac IS NULL'),
      pruneJobs: this.db.prepare('DELETE FROM jobs WHERE terminal = 1 AND batch_id < ?'),
      pruneTxs: this.db.prepare(
        'DELETE FROM txs WHERE batch_id < ? AND batch_id NOT IN (SELECT batch_id FROM jobs)',
      ),
    };
  }

  /**
   * Keys the rows' MACs with the settlement key's secret bytes and checks every row: a row that
   * fails stops the engine here, before any of them is acted on.
   */
  authenticate(secret: Uint8Array): void {
    this.rowMac = new RowMac(secret);
    this.rowSeal = new RowSeal(secret);
    this.adoptLegacyRows();
    this.verifyAll();
    this.sealPlainRows();
  }

  private get mac(): RowMac {
    if (!this.rowMac) throw new Error('settlement journal used before authenticate()');
    return this.rowMac;
  }

  private get seal(): RowSeal {
    if (!this.rowSeal) throw new Error('settlement journal used before authenticate()');
    return this.rowSeal;
  }

  /**
   * Authenticated rows written before bodies were sealed: sealed now (a finished match's reduced
   * to its status record), and the log truncated, so the plaintext leaves the file.
   */
  private sealPlainRows(): void {
    const jobs = this.stmts.unsealedJobs.all(SEALED_PREFIX) as JobRow[];
    const txs = this.stmts.unsealedTxs.all(SEALED_PREFIX) as TxRow[];
    if (jobs.length === 0 && txs.length === 0) return;
    this.db.transaction(() => {
      for (const r of jobs) this.putJob(r.batch_id, r.match_idx, r.terminal === 1, decodeJob(r.body));
      for (const r of txs) this.putTx({ ...r, body: r.body });
    })();
    this.truncateLog();
  }

  /** Moves the write-ahead log into the database and empties it (old frames hold old bodies). */
  private truncateLog(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /**
   * Rows written before rows were authenticated: history (terminal jobs, transactions) is dropped,
   * the match-id floors are adopted (deleting them is no harder than editing them), and an open
   * job refuses the start: it cannot be told apart from a forged one.
   */
  private adoptLegacyRows(): void {
    if ((this.stmts.legacyOpenJobs.get() as number) > 0)
      throw new JournalDamagedError(
        'an open job was journaled without authentication (by an older engine); settle it with that version first',
      );
    this.db.transaction(() => {
      this.stmts.dropLegacyJobs.run();
      this.stmts.dropLegacyTxs.run();
      for (const r of this.stmts.legacyMeta.all() as MetaRow[]) this.putMeta(r.key, r.value);
    })();
  }

  /** Every row must authenticate before the engine acts on any of them. */
  private verifyAll(): void {
    for (const r of this.stmts.allJobs.iterate() as Iterable<JobRow>) this.checkJob(r);
    for (const r of this.stmts.allTxs.iterate() as Iterable<TxRow>) this.checkTx(r);
    for (const r of this.stmts.allMeta.iterate() as Iterable<MetaRow>) this.checkMeta(r);
  }

  /**
   * The row's body once its MAC and (when sealed) its seal pass; a body from before sealing is
   * plain (sealPlainRows seals it at authentication).
   */
  private openBody(table: 'jobs' | 'txs', identity: readonly (string | number)[], r: JobRow | TxRow): string {
    const fields = [...identity, r.body];
    const plain = this.mac.verify(table, fields, r.mac)
      ? r.body.startsWith(SEALED_PREFIX)
        ? this.seal.open(table, identity, r.body)
        : r.body
      : undefined;
    if (plain === undefined)
      throw new JournalDamagedError(
        table === 'jobs'
          ? `job ${(r as JobRow).batch_id}/${(r as JobRow).match_idx} fails authentication`
          : `transaction row of batch ${r.batch_id} fails authentication`,
      );
    return plain;
  }

  private checkJob(r: JobRow): string {
    return this.openBody('jobs', jobIdentity(r), r);
  }

  private checkTx(r: TxRow): string {
    return this.openBody('txs', txIdentity(r), r);
  }

  /** Seals and MACs a job row; a finished match keeps only its {@link FinishedJob} record. */
  private putJob(batchId: number, matchIdx: number, terminal: boolean, j: FinishedJob | JobState): void {
    const identity = { batch_id: batchId, match_idx: matchIdx, terminal: terminal ? 1 : 0 };
    const body = this.seal.seal(
      'jobs',
      jobIdentity({ ...identity, body: '', mac: null }),
      encodeJob(terminal ? finishedJob(j) : j),
    );
    const mac = this.mac.tag('jobs', jobFields({ ...identity, body, mac: null }));
    this.stmts.upsertJob.run(batchId, matchIdx, identity.terminal, body, mac);
  }

  private putTx(r: Omit<TxRow, 'mac'>): void {
    const body = this.seal.seal('txs', txIdentity({ ...r, mac: null }), r.body);
    const mac = this.mac.tag('txs', txFields({ ...r, body, mac: null }));
    this.stmts.insertTx.run(r.signature, r.batch_id, r.kind, r.nonce, body, mac);
  }

  private checkMeta(r: MetaRow): MetaRow {
    if (!this.mac.verify('meta', metaFields(r), r.mac))
      throw new JournalDamagedError(`meta row ${r.key} fails authentication`);
    return r;
  }

  private putMeta(key: string, value: string): void {
    this.stmts.setMeta.run(key, value, this.mac.tag('meta', metaFields({ key, value, mac: null })));
  }

  /** Writes the jobs (one batch's, usually) and any signed transactions in one durable commit. */
  write(
    jobs: (JobState | FinishedJob)[],
    txs: { tx: Transaction; batchId: bigint; kind: 'lock' | 'settle' | 'release' | 'fence' }[] = [],
  ): void {
    const t0 = performance.now();
    let finished = false;
    this.db.transaction(() => {
      for (const { tx, batchId, kind } of txs)
        this.putTx({
          signature: tx.signature,
          batch_id: Number(batchId),
          kind,
          nonce: tx.nonce,
          body: JSON.stringify(tx),
        });
      for (const j of jobs) {
        this.raiseLastMatchId(j.marketId, BigInt(j.plan.matchId));
        const terminal = TERMINAL_STAGES.has(j.stage);
        finished ||= terminal;
        this.putJob(Number(j.batchId), j.plan.matchIdx, terminal, j);
      }
    })();
    // A finished match's plan was rewritten away: its old frames leave the log too.
    if (finished) this.truncateLog();
    this.writeMs.push(performance.now() - t0);
    if (this.writeMs.length > 4096) this.writeMs.splice(0, 2048);
  }

  openJobs(): JobState[] {
    return (this.stmts.openJobs.all() as JobRow[]).map((r) => decodeJob<JobState>(this.checkJob(r)));
  }

  /**
   * Jobs of the last `batches` batches that reached a terminal stage (for the status record), as
   * far as they are kept: only their status record.
   */
  recentTerminalJobs(batches: number): FinishedJob[] {
    return (this.stmts.recentTerminal.all(batches) as JobRow[]).map((r) =>
      finishedJob(decodeJob<FinishedJob>(this.checkJob(r))),
    );
  }

  /** Match ids are per market and must not repeat across boots (memos carry them). */
  private raiseLastMatchId(marketId: string, matchId: bigint): void {
    const previous = this.lastMatchId(marketId);
    if (matchId > previous) this.putMeta(`last_match_id:${marketId}`, matchId.toString());
  }

  /** The last match id journaled for a market (kept in `meta`, so pruning old jobs cannot lose it). */
  lastMatchId(marketId: string): bigint {
    const r = this.stmts.getMeta.get(`last_match_id:${marketId}`) as MetaRow | undefined;
    return r === undefined ? 0n : BigInt(this.checkMeta(r).value);
  }

  maxBatchId(): bigint {
    const v = this.stmts.maxBatch.get() as number | null;
    return BigInt(v ?? 0);
  }

  maxNonce(): bigint {
    const v = this.stmts.maxNonce.get() as string | undefined;
    return v === undefined ? 0n : BigInt(v);
  }

  /** Drops terminal jobs (and their transactions) of batches older than `keepFrom`. */
  prune(keepFrom: bigint): void {
    this.db.transaction(() => {
      this.stmts.pruneJobs.run(keepFrom);
      this.stmts.pruneTxs.run(keepFrom);
    })();
    this.truncateLog();
  }

  close(): void {
    this.db.close();
  }
}

function encodeJob(j: FinishedJob | JobState): string {
  return JSON.stringify(j, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

function decodeJob<T extends FinishedJob>(body: string): T {
  const j = JSON.parse(body) as T & { batchId: string };
  return { ...j, batchId: BigInt(j.batchId) };
}
