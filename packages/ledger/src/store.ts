/**
 * SQLite persistence. Every instruction's effects are written inside one SQLite transaction, so a
 * crash leaves the chain at a transaction boundary. u64 and larger sums are stored as decimal text.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { preparePrivateDatabase } from '@nightjar/protocol';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mints (address TEXT PRIMARY KEY, decimals INTEGER NOT NULL, label TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS balances (owner TEXT NOT NULL, mint TEXT NOT NULL, amount TEXT NOT NULL, PRIMARY KEY (owner, mint));
CREATE TABLE IF NOT EXISTS nonces (signer TEXT PRIMARY KEY, nonce TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS markets (market_id TEXT PRIMARY KEY, symbol TEXT NOT NULL UNIQUE, record TEXT NOT NULL, seq INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS notes (
  commitment TEXT PRIMARY KEY, tree_id INTEGER NOT NULL, leaf_index INTEGER NOT NULL,
  mint TEXT NOT NULL, amount TEXT, slot INTEGER NOT NULL, tx_seq INTEGER NOT NULL,
  UNIQUE (tree_id, leaf_index));
CREATE INDEX IF NOT EXISTS notes_slot ON notes (slot);
CREATE INDEX IF NOT EXISTS notes_seq ON notes (tx_seq);
CREATE TABLE IF NOT EXISTS nullifiers (nullifier TEXT PRIMARY KEY, mint TEXT NOT NULL, amount TEXT, kind TEXT NOT NULL, slot INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS locks (nullifier TEXT PRIMARY KEY, until_slot INTEGER NOT NULL, locker TEXT NOT NULL, slot INTEGER NOT NULL, use_tag TEXT);
CREATE TABLE IF NOT EXISTS roots (tree_id INTEGER NOT NULL, root TEXT NOT NULL, size INTEGER NOT NULL, PRIMARY KEY (tree_id, root)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS notes_tree_slot ON notes (tree_id, slot, leaf_index);
CREATE TABLE IF NOT EXISTS supply (mint TEXT PRIMARY KEY, deposited TEXT NOT NULL, withdrawn TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS transactions (
  signature TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE, slot INTEGER NOT NULL, signer TEXT NOT NULL,
  instruction TEXT NOT NULL, err TEXT, result TEXT, nonce TEXT, body TEXT);
CREATE INDEX IF NOT EXISTS transactions_signer ON transactions (signer, seq);
CREATE INDEX IF NOT EXISTS transactions_slot ON transactions (slot, seq);
CREATE INDEX IF NOT EXISTS transactions_history ON transactions (signer) WHERE err IS NULL;
CREATE TABLE IF NOT EXISTS memos (signature TEXT NOT NULL, match_idx INTEGER NOT NULL, party INTEGER NOT NULL, memo TEXT NOT NULL, idx INTEGER, PRIMARY KEY (signature, match_idx, party));
CREATE TABLE IF NOT EXISTS tree_snapshot (id INTEGER PRIMARY KEY CHECK (id = 0), tx_seq INTEGER NOT NULL, image BLOB NOT NULL);
`;

export type Db = Database.Database;

/** The database's file name in a ledger's data directory. */
export const DATABASE_FILE = 'ledger.sqlite';

/** Opens (creating if needed) the ledger database: `<dataDir>/ledger.sqlite`, or in memory. */
export function openDatabase(dataDir: string | undefined): Db {
  let db: Db;
  if (dataDir === undefined) db = new Database(':memory:');
  else {
    // A directory another user owns or may write to is refused; the database is 0600.
    preparePrivateDatabase(join(dataDir, DATABASE_FILE));
    db = new Database(join(dataDir, DATABASE_FILE));
    db.pragma('journal_mode = WAL');
    // FULL: a transaction reported as landed survives power loss.
    db.pragma('synchronous = FULL');
  }
  try {
    refuseOldLayout(db);
  } catch (err) {
    db.close();
    throw err;
  }
  db.exec(SCHEMA);
  migrateMemoIndex(db);
  migrateLockUseTag(db);
  return db;
}

/**
 * Locks and settlements stopped carrying commitments, orders and amounts (issue 18); a data
 * directory written before that is not migrated (no production chain existed), so refuse it clearly.
 */
function refuseOldLayout(db: Db): void {
  const lockColumns = db.prepare('PRAGMA table_info(locks)').all() as { name: string }[];
  if (lockColumns.some((c) => c.name === 'note_commitment'))
    throw new Error(
      'this ledger data directory predates private settlement (locks carry a note commitment); start from a fresh data directory',
    );
}

/**
 * Memos carry a global index (`idx`, from 0, in the order they were stored) that clients page by.
 * Databases written before it existed get the column and are numbered in storage order: by
 * transaction, then insertion order within it.
 */
function migrateMemoIndex(db: Db): void {
  const columns = db.prepare('PRAGMA table_info(memos)').all() as { name: string }[];
  db.transaction(() => {
    if (!columns.some((c) => c.name === 'idx')) db.exec('ALTER TABLE memos ADD COLUMN idx INTEGER');
    const unnumbered = db
      .prepare(
        'SELECT m.rowid AS id FROM memos m JOIN transactions t ON t.signature = m.signature WHERE m.idx IS NULL ORDER BY t.seq, m.rowid',
      )
      .pluck()
      .all() as number[];
    if (unnumbered.length > 0) {
      let next = (db.prepare('SELECT COALESCE(MAX(idx), -1) + 1 FROM memos').pluck().get() as number) ?? 0;
      const set = db.prepare('UPDATE memos SET idx = ? WHERE rowid = ?');
      for (const id of unnumbered) set.run(next++, id);
    }
    db.exec('CREATE UNIQUE INDEX IF NOT EXISTS memos_idx ON memos (idx)');
  })();
}

/**
 * Locks carry the use tag their proof showed (settlement v2, issue 29). A lock written before has
 * none: it still reads as a lock (getNoteStatus, getLiveLocks) and may be released, but no v2
 * settlement can consume it.
 */
function migrateLockUseTag(db: Db): void {
  const columns = db.prepare('PRAGMA table_info(locks)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'use_tag')) db.exec('ALTER TABLE locks ADD COLUMN use_tag TEXT');
}

export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}
