/**
 * better-sqlite3, the one native module a venue needs, opened for the engine too: the engine
 * imports it from here rather than depending on it itself, so that an install of the CLI's
 * tarballs holds (and compiles) one copy, the ledger's (docs/architecture.md, "Packages as an
 * outside project gets them").
 */
import Database from 'better-sqlite3';

/** An open SQLite database (better-sqlite3's). */
export type SqliteDb = Database.Database;

/** Opens (creating it if missing) the SQLite database in `file`, or an in-memory one for ':memory:'. */
export function openSqlite(file: string): SqliteDb {
  return new Database(file);
}
