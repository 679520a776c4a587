/**
 * The account store in the engine's SQLite file (the embedded default; store.ts says what is
 * kept). One process writes it, so each call is synchronous underneath; the interface is async
 * for the shared PostgreSQL store's sake.
 */
import type { SqliteDb as Database } from '@nightjar/ledger';
import {
  accountFromColumns,
  type AccountColumns,
  type AccountRow,
  type AccountStore,
  type RevokedToken,
} from './store.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  account_id TEXT PRIMARY KEY,
  api_key TEXT NOT NULL UNIQUE,
  api_secret_hash TEXT NOT NULL,
  passphrase_hash TEXT NOT NULL,
  is_admin INTEGER NOT NULL CHECK (is_admin IN (0, 1)),
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  label TEXT,
  tokens_valid_after_s INTEGER NOT NULL DEFAULT 0,
  cancel_on_disconnect_default INTEGER NOT NULL DEFAULT 0 CHECK (cancel_on_disconnect_default IN (0, 1)),
  created_at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS revoked_tokens (
  jti TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS revoked_tokens_expiry ON revoked_tokens (expires_at_ms);
`;

/**
 * Databases from before issue 28 kept the token MAC key in this table: it is dropped, its pages
 * overwritten (secure_delete), so a copy of the database can no longer mint tokens. Tokens issued
 * under it stop verifying.
 */
function dropLegacyTokenKey(db: Database): void {
  const legacy = db
    .prepare<[], { n: number }>(
      `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'account_keys'`,
    )
    .get();
  if (legacy === undefined || legacy.n === 0) return;
  const secureDelete = db.pragma('secure_delete', { simple: true }) as number;
  db.pragma('secure_delete = ON');
  db.exec('DROP TABLE account_keys');
  db.pragma(`secure_delete = ${secureDelete}`);
  // The key's old pages may linger in the write-ahead log until it is checkpointed.
  if (db.pragma('journal_mode', { simple: true }) === 'wal') db.pragma('wal_checkpoint(TRUNCATE)');
}

export class SqliteAccountStore implements AccountStore {
  readonly available = true;
  private readonly stmts;

  constructor(readonly db: Database) {
    db.exec(SCHEMA);
    dropLegacyTokenKey(db);
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO accounts (account_id, api_key, api_secret_hash, passphrase_hash, is_admin, enabled, label,
           tokens_valid_after_s, cancel_on_disconnect_default, created_at_ms)
         VALUES (@account_id, @api_key, @api_secret_hash, @passphrase_hash, @is_admin, @enabled, @label,
           @tokens_valid_after_s, @cancel_on_disconnect_default, @created_at_ms)`,
      ),
      all: db.prepare<[], AccountColumns>(`SELECT * FROM accounts ORDER BY created_at_ms, account_id`),
      byId: db.prepare<[string], AccountColumns>(`SELECT * FROM accounts WHERE account_id = ?`),
      insertFirstAdmin: db.prepare(
        `INSERT INTO accounts (account_id, api_key, api_secret_hash, passphrase_hash, is_admin, enabled, label,
           tokens_valid_after_s, cancel_on_disconnect_default, created_at_ms)
         SELECT @account_id, @api_key, @api_secret_hash, @passphrase_hash, 1, @enabled, @label,
           @tokens_valid_after_s, @cancel_on_disconnect_default, @created_at_ms
         WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE is_admin = 1)`,
      ),
      disable: db.prepare<[string]>(
        `UPDATE accounts SET enabled = 0 WHERE account_id = ? AND (is_admin = 0 OR enabled = 0
           OR (SELECT COUNT(*) FROM accounts WHERE is_admin = 1 AND enabled = 1) > 1)`,
      ),
      enable: db.prepare<[string]>(`UPDATE accounts SET enabled = 1 WHERE account_id = ?`),
      raiseValidAfter: db.prepare<[number, string]>(
        `UPDATE accounts SET tokens_valid_after_s = MAX(tokens_valid_after_s, ?) WHERE account_id = ?`,
      ),
      setCod: db.prepare<[number, string]>(
        `UPDATE accounts SET cancel_on_disconnect_default = ? WHERE account_id = ?`,
      ),
      revoke: db.prepare<[string, string, number]>(
        `INSERT OR IGNORE INTO revoked_tokens (jti, account_id, expires_at_ms) VALUES (?, ?, ?)`,
      ),
      revokedOne: db.prepare<[string], { jti: string; account_id: string; expires_at_ms: number }>(
        `SELECT jti, account_id, expires_at_ms FROM revoked_tokens WHERE jti = ?`,
      ),
      liveRevoked: db.prepare<[number], { jti: string; account_id: string; expires_at_ms: number }>(
        `SELECT jti, account_id, expires_at_ms FROM revoked_tokens WHERE expires_at_ms > ? ORDER BY expires_at_ms, jti`,
      ),
      prune: db.prepare<[number]>(`DELETE FROM revoked_tokens WHERE expires_at_ms <= ?`),
    };
  }

  async insertAccount(a: AccountRow): Promise<void> {
    this.stmts.insert.run(toParams(a));
  }

  async insertFirstAdmin(a: AccountRow): Promise<boolean> {
    return this.stmts.insertFirstAdmin.run(toParams(a)).changes === 1;
  }

  async listAccounts(): Promise<AccountRow[]> {
    return this.stmts.all.all().map(accountFromColumns);
  }

  async getAccount(accountId: string): Promise<AccountRow | undefined> {
    const r = this.stmts.byId.get(accountId);
    return r === undefined ? undefined : accountFromColumns(r);
  }

  async disableUnlessLastAdmin(accountId: string): Promise<boolean> {
    return this.stmts.disable.run(accountId).changes === 1;
  }

  async enable(accountId: string): Promise<void> {
    this.stmts.enable.run(accountId);
  }

  async raiseTokensValidAfter(accountId: string, seconds: number): Promise<number> {
    this.stmts.raiseValidAfter.run(seconds, accountId);
    const row = this.stmts.byId.get(accountId);
    return row === undefined ? seconds : accountFromColumns(row).tokensValidAfterS;
  }

  async setCancelOnDisconnectDefault(accountId: string, value: boolean): Promise<void> {
    this.stmts.setCod.run(value ? 1 : 0, accountId);
  }

  async insertRevokedToken(t: RevokedToken): Promise<void> {
    this.stmts.revoke.run(t.jti, t.accountId, t.expiresAtMs);
  }

  async revokedToken(jti: string): Promise<RevokedToken | undefined> {
    const r = this.stmts.revokedOne.get(jti);
    return r === undefined
      ? undefined
      : { jti: r.jti, accountId: r.account_id, expiresAtMs: r.expires_at_ms };
  }

  async liveRevokedTokens(nowMs: number): Promise<RevokedToken[]> {
    return this.stmts.liveRevoked
      .all(nowMs)
      .map((r) => ({ jti: r.jti, accountId: r.account_id, expiresAtMs: r.expires_at_ms }));
  }

  async pruneRevokedTokens(nowMs: number): Promise<number> {
    return this.stmts.prune.run(nowMs).changes;
  }

  /** The database belongs to the engine's boot, which closes it. */
  async close(): Promise<void> {}
}

function toParams(a: AccountRow) {
  return {
    account_id: a.accountId,
    api_key: a.apiKey,
    api_secret_hash: a.apiSecretHash,
    passphrase_hash: a.passphraseHash,
    is_admin: a.isAdmin ? 1 : 0,
    enabled: a.enabled ? 1 : 0,
    label: a.label,
    tokens_valid_after_s: a.tokensValidAfterS,
    cancel_on_disconnect_default: a.cancelOnDisconnectDefault ? 1 : 0,
    created_at_ms: a.createdAtMs,
  };
}
