/**
 * The settlement journal: its own SQLite file (`settlement.sqlite`, synchronous = FULL), written
 * before the first ledger side effect of a batch and at every stage, and holding every signed
 * transaction before it is sent. A restart reads it back to reconcile against the ledger
 * (recovery.ts). A missing or damaged journal where one existed is an error, never an empty one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Transaction } from '@nightjar/ledger';
import { TERMINAL_STAGES, type JobState } from './types.js';

export const JOURNAL_FILE = 'settlement.sqlite';

export class JournalDamagedError extends Error {
  constructor(message: string) {
    super(`settlement journal: ${message}`);
    this.name = 'JournalDamagedError';
  }
}

type JobRow = { body: string };

export class SettlementJournal {
  private readonly db: Database.Database;
  private readonly stmts;
  /** Durations of the last journal writes in ms (bounded; for metrics and the benchmark). */
  readonly writeMs: number[] = [];

  /**
   * `mustExist`: the data directory says a journal was created before (its settlement key
   * exists), so a missing file is damage, not a fresh start.
   */
  constructor(dataDir: string | undefined, mustExist: boolean) {
    const file = dataDir === undefined ? ':memory:' : join(dataDir, JOURNAL_FILE);
    if (dataDir !== undefined && mustExist && !existsSync(file))
      throw new JournalDamagedError(`${file} is missing but the data directory has a settlement key`);
    try {
      this.db = new Database(file);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      const check = this.db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(String(check));
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS jobs (
          batch_id INTEGER NOT NULL, match_idx INTEGER NOT NULL, terminal INTEGER NOT NULL,
          body TEXT NOT NULL, PRIMARY KEY (batch_id, match_idx));
        CREATE INDEX IF NOT EXISTS jobs_open ON jobs (terminal, batch_id);
        CREATE TABLE IF NOT EXISTS txs (
          signature TEXT PRIMARY KEY, batch_id INTEGER NOT NULL, kind TEXT NOT NULL,
          nonce TEXT NOT NULL, body TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS txs_batch ON txs (batch_id);
      `);
    } catch (err) {
      throw new JournalDamagedError(`cannot be read (${err instanceof Error ? err.message : 'unknown'})`);
    }
    this.stmts = {
      upsertJob: this.db.prepare(
        'INSERT INTO jobs (batch_id, match_idx, terminal, body) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT (batch_id, match_idx) DO UPDATE SET terminal = excluded.terminal, body = excluded.body',
      ),
      openJobs: this.db.prepare('SELECT body FROM jobs WHERE terminal = 0 ORDER BY batch_id, match_idx'),
      recentTerminal: this.db.prepare(
        'SELECT body FROM jobs WHERE batch_id IN (SELECT DISTINCT batch_id FROM jobs WHERE terminal = 1 ' +
          'ORDER BY batch_id DESC LIMIT ?) ORDER BY batch_id, match_idx',
      ),
      maxBatch: this.db.prepare('SELECT MAX(batch_id) FROM jobs').pluck(),
      insertTx: this.db.prepare(
        'INSERT OR REPLACE INTO txs (signature, batch_id, kind, nonce, body) VALUES (?, ?, ?, ?, ?)',
      ),
      maxNonce: this.db.prepare('SELECT nonce FROM txs ORDER BY CAST(nonce AS INTEGER) DESC LIMIT 1').pluck(),
      txsOf: this.db.prepare('SELECT body FROM txs WHERE batch_id = ? AND kind = ?').pluck(),
      tx: this.db.prepare('SELECT body FROM txs WHERE signature = ?').pluck(),
      getMeta: this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: this.db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      pruneJobs: this.db.prepare('DELETE FROM jobs WHERE terminal = 1 AND batch_id < ?'),
      pruneTxs: this.db.prepare(
        'DELETE FROM txs WHERE batch_id < ? AND batch_id NOT IN (SELECT batch_id FROM jobs)',
      ),
    };
  }

  /** Writes the jobs (one batch's, usually) and any signed transactions in one durable commit. */
  write(
    jobs: JobState[],
    txs: { tx: Transaction; batchId: bigint; kind: 'lock' | 'settle' | 'release' | 'fence' }[] = [],
  ): void {
    const t0 = performance.now();
    this.db.transaction(() => {
      for (const { tx, batchId, kind } of txs)
        this.stmts.insertTx.run(tx.signature, batchId, kind, tx.nonce, JSON.stringify(tx));
      for (const j of jobs) {
        this.raiseLastMatchId(j.marketId, BigInt(j.plan.matchId));
        this.stmts.upsertJob.run(
          j.batchId,
          j.plan.matchIdx,
          TERMINAL_STAGES.has(j.stage) ? 1 : 0,
          encodeJob(j),
        );
      }
    })();
    this.writeMs.push(performance.now() - t0);
    if (this.writeMs.length > 4096) this.writeMs.splice(0, 2048);
  }

  openJobs(): JobState[] {
    return (this.stmts.openJobs.all() as JobRow[]).map((r) => decodeJob(r.body));
  }

  /** Jobs of the last `batches` batches that reached a terminal stage (for the status record). */
  recentTerminalJobs(batches: number): JobState[] {
    return (this.stmts.recentTerminal.all(batches) as JobRow[]).map((r) => decodeJob(r.body));
  }

  /** Match ids are per market and must not repeat across boots (memos carry them). */
  private raiseLastMatchId(marketId: string, matchId: bigint): void {
    const key = `last_match_id:${marketId}`;
    const previous = this.stmts.getMeta.get(key) as string | undefined;
    if (previous === undefined || matchId > BigInt(previous)) this.stmts.setMeta.run(key, matchId.toString());
  }

  /** The last match id journaled for a market (kept in `meta`, so pruning old jobs cannot lose it). */
  lastMatchId(marketId: string): bigint {
    const v = this.stmts.getMeta.get(`last_match_id:${marketId}`) as string | undefined;
    return v === undefined ? 0n : BigInt(v);
  }

  maxBatchId(): bigint {
    const v = this.stmts.maxBatch.get() as number | null;
    return BigInt(v ?? 0);
  }

  maxNonce(): bigint {
    const v = this.stmts.maxNonce.get() as string | undefined;
    return v === undefined ? 0n : BigInt(v);
  }

  transactions(batchId: bigint, kind: 'lock' | 'settle'): Transaction[] {
    return (this.stmts.txsOf.all(batchId, kind) as string[]).map((b) => JSON.parse(b) as Transaction);
  }

  meta(key: string): string | undefined {
    return this.stmts.getMeta.get(key) as string | undefined;
  }

  setMeta(key: string, value: string): void {
    this.stmts.setMeta.run(key, value);
  }

  /** Drops terminal jobs (and their transactions) of batches older than `keepFrom`. */
  prune(keepFrom: bigint): void {
    this.db.transaction(() => {
      this.stmts.pruneJobs.run(keepFrom);
      this.stmts.pruneTxs.run(keepFrom);
    })();
  }

  close(): void {
    this.db.close();
  }
}

function encodeJob(j: JobState): string {
  return JSON.stringify(j, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

function decodeJob(body: string): JobState {
  const j = JSON.parse(body) as JobState & { batchId: string };
  return { ...j, batchId: BigInt(j.batchId) };
}
