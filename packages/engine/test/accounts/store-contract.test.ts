/** One suite, run against both account stores: SQLite (the default) and a real PostgreSQL server. */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { PgAccountStore } from '../../src/accounts/pg-store.js';
import { SqliteAccountStore } from '../../src/accounts/sqlite-store.js';
import type { AccountRow, AccountStore } from '../../src/accounts/store.js';
import { PgHealth } from '../../src/pg/health.js';
import { migrate } from '../../src/pg/migrate.js';
import { openPgPool, type PgPool } from '../../src/pg/pool.js';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);
const C = 'c'.repeat(32);

function row(overrides: Partial<AccountRow> = {}): AccountRow {
  return {
    accountId: A,
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

let server: TestPostgres;
let pool: PgPool;
beforeAll(async () => {
  server = await startPostgres();
  pool = openPgPool(server.url);
  await migrate(pool);
});
afterAll(async () => {
  await pool?.end();
  await server?.close();
});

const STORES: [string, () => Promise<AccountStore>][] = [
  ['SQLite', async () => new SqliteAccountStore(new Database(':memory:'))],
  [
    'PostgreSQL',
    async () => {
      await pool.query('TRUNCATE accounts, revoked_tokens');
      return new PgAccountStore(pool, server.url, new PgHealth());
    },
  ],
];

describe.each(STORES)('AccountStore contract: %s', (_name, open) => {
  let store: AccountStore;
  beforeEach(async () => {
    store = await open();
  });

  it('stores and updates accounts', async () => {
    expect(store.available).toBe(true);
    await store.insertAccount(row({ label: 'mm', isAdmin: true }));
    await store.insertAccount(row({ accountId: B, apiKey: 'nj_other', createdAtMs: 2 }));
    await expect(store.insertAccount(row({ accountId: C }))).rejects.toThrow();
    await store.insertAccount(row({ accountId: C, apiKey: 'nj_third', isAdmin: true, createdAtMs: 3 }));
    expect(await store.disableUnlessLastAdmin(A)).toBe(true);
    expect(await store.raiseTokensValidAfter(A, 1234)).toBe(1234);
    expect(await store.raiseTokensValidAfter(A, 1000)).toBe(1234); // never lowered
    await store.setCancelOnDisconnectDefault(A, true);
    expect(await store.getAccount(A)).toEqual(
      row({
        label: 'mm',
        isAdmin: true,
        enabled: false,
        tokensValidAfterS: 1234,
        cancelOnDisconnectDefault: true,
      }),
    );
    await store.enable(A);
    expect((await store.getAccount(A))?.enabled).toBe(true);
    expect((await store.listAccounts()).map((a) => a.apiKey)).toEqual(['nj_key', 'nj_other', 'nj_third']);
    expect(await store.getAccount('nope')).toBeUndefined();
  });

  it('refuses to disable the last enabled admin, and makes only a first admin', async () => {
    await store.insertAccount(row({ isAdmin: true }));
    expect(await store.insertFirstAdmin(row({ accountId: B, apiKey: 'nj_b' }))).toBe(false);
    await store.insertAccount(row({ accountId: C, apiKey: 'nj_c' }));
    expect(await store.disableUnlessLastAdmin(A)).toBe(false);
    expect(await store.disableUnlessLastAdmin(C)).toBe(true); // not an admin
    expect(await store.disableUnlessLastAdmin(C)).toBe(true); // already disabled
    expect((await store.getAccount(A))?.enabled).toBe(true);
  });

  it('makes the first admin once', async () => {
    expect(await store.insertFirstAdmin(row({ isAdmin: true }))).toBe(true);
    expect(await store.insertFirstAdmin(row({ accountId: B, apiKey: 'nj_b', isAdmin: true }))).toBe(false);
    expect((await store.listAccounts()).map((a) => a.accountId)).toEqual([A]);
  });

  it('keeps revoked tokens until they expire', async () => {
    await store.insertRevokedToken({ jti: 'j1', accountId: A, expiresAtMs: 100 });
    await store.insertRevokedToken({ jti: 'j2', accountId: A, expiresAtMs: 200 });
    await store.insertRevokedToken({ jti: 'j2', accountId: A, expiresAtMs: 200 }); // idempotent
    expect((await store.liveRevokedTokens(99)).map((t) => t.jti)).toEqual(['j1', 'j2']);
    expect((await store.liveRevokedTokens(100)).map((t) => t.jti)).toEqual(['j2']);
    expect(await store.revokedToken('j1')).toEqual({ jti: 'j1', accountId: A, expiresAtMs: 100 });
    expect(await store.pruneRevokedTokens(100)).toBe(1);
    expect(await store.pruneRevokedTokens(100)).toBe(0);
    expect(await store.revokedToken('j1')).toBeUndefined();
    expect(await store.liveRevokedTokens(0)).toEqual([{ jti: 'j2', accountId: A, expiresAtMs: 200 }]);
  });
});
