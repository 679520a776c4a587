import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AccountStore, type AccountRow } from './store.js';

function row(overrides: Partial<AccountRow> = {}): AccountRow {
  return {
    accountId: 'a'.repeat(32),
    apiKey: 'nj_key',
    apiSecretHash: '$argon2id$secret',
    passphraseHash: '$argon2id$pass',
    isAdmin: false,
    enabled: true,
    label: null,
    tokensValidAfterS: 0,
    cancelOnDisconnectDefault: false,
    createdAtMs: 1,
    ...overrides,
  };
}

describe('AccountStore', () => {
  it("creates its tables idempotently and drops an older version's token key", () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE account_keys (name TEXT PRIMARY KEY, value BLOB NOT NULL)');
    db.prepare('INSERT INTO account_keys (name, value) VALUES (?, ?)').run(
      'token_hmac_v1',
      Buffer.alloc(32, 7),
    );
    new AccountStore(db);
    new AccountStore(db);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all();
    expect(tables).not.toContain('account_keys');
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'revoked_tokens']));
  });

  it('stores and updates accounts', () => {
    const store = new AccountStore(new Database(':memory:'));
    store.insertAccount(row({ label: 'mm', isAdmin: true }));
    store.insertAccount(row({ accountId: 'b'.repeat(32), apiKey: 'nj_other', createdAtMs: 2 }));
    expect(() => store.insertAccount(row({ accountId: 'c'.repeat(32) }))).toThrow(/UNIQUE/);
    store.setEnabled('a'.repeat(32), false);
    store.setTokensValidAfter('a'.repeat(32), 1234);
    store.setCancelOnDisconnectDefault('a'.repeat(32), true);
    expect(store.getAccount('a'.repeat(32))).toEqual(
      row({
        label: 'mm',
        isAdmin: true,
        enabled: false,
        tokensValidAfterS: 1234,
        cancelOnDisconnectDefault: true,
      }),
    );
    expect(store.listAccounts().map((a) => a.apiKey)).toEqual(['nj_key', 'nj_other']);
    expect(store.getAccount('nope')).toBeUndefined();
  });

  it('keeps revoked tokens until they expire', () => {
    const store = new AccountStore(new Database(':memory:'));
    store.insertRevokedToken({ jti: 'j1', accountId: 'a', expiresAtMs: 100 });
    store.insertRevokedToken({ jti: 'j2', accountId: 'a', expiresAtMs: 200 });
    store.insertRevokedToken({ jti: 'j2', accountId: 'a', expiresAtMs: 200 }); // idempotent
    expect(store.liveRevokedTokens(99).map((t) => t.jti)).toEqual(['j1', 'j2']);
    expect(store.liveRevokedTokens(100).map((t) => t.jti)).toEqual(['j2']);
    expect(store.pruneRevokedTokens(100)).toBe(1);
    expect(store.pruneRevokedTokens(100)).toBe(0);
    expect(store.liveRevokedTokens(0)).toEqual([{ jti: 'j2', accountId: 'a', expiresAtMs: 200 }]);
  });
});
