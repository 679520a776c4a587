import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteAccountStore } from './sqlite-store.js';

// The behaviour both stores share is test/accounts/store-contract.test.ts; this is SQLite's own.
describe('SqliteAccountStore', () => {
  it("creates its tables idempotently and drops an older version's token key", () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE account_keys (name TEXT PRIMARY KEY, value BLOB NOT NULL)');
    db.prepare('INSERT INTO account_keys (name, value) VALUES (?, ?)').run(
      'token_hmac_v1',
      Buffer.alloc(32, 7),
    );
    new SqliteAccountStore(db);
    new SqliteAccountStore(db);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all();
    expect(tables).not.toContain('account_keys');
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'revoked_tokens']));
  });
});
