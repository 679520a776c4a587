/**
 * The account store in PostgreSQL, shared by several engines (`--store postgres://…`; schema in
 * pg/migrations/001-accounts.ts). Every write NOTIFYs {@link ACCOUNTS_CHANNEL} in the same
 * statement or transaction, naming the account or jti only; {@link PgChangeFeed} delivers them to
 * every engine. The "first admin" and "last enabled admin" rules are checked and written in one
 * transaction under an advisory lock, so two engines racing cannot both pass them.
 */
import type { PgHealth } from '../pg/health.js';
import { inTransaction, type PgClient, type PgPool } from '../pg/pool.js';
import { ACCOUNTS_CHANNEL, PgChangeFeed } from './pg-change-feed.js';
import {
  accountFromColumns,
  type AccountColumns,
  type AccountRow,
  type AccountStore,
  type RevokedToken,
  type StoreWatcher,
} from './store.js';

/** The advisory lock the admin rules hold ("nj-admin" in ASCII, as a 64-bit integer). */
const ADMIN_RULE_LOCK = 0x6e6a2d61646d696en.toString();

interface RevokedPgRow {
  jti: string;
  account_id: string;
  expires_at_ms: string;
}

const INSERT = `INSERT INTO accounts (account_id, api_key, api_secret_hash, passphrase_hash, is_admin,
  enabled, label, tokens_valid_after_s, cancel_on_disconnect_default, created_at_ms)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;
/** Wraps a row-changing statement that RETURNs account_id so it also notifies, atomically. */
const notifyingAccount = (sql: string, extra = '') =>
  `WITH changed AS (${sql}) SELECT pg_notify('${ACCOUNTS_CHANNEL}', 'a:' || account_id)${extra} FROM changed`;

function toRevoked(r: RevokedPgRow): RevokedToken {
  return { jti: r.jti, accountId: r.account_id, expiresAtMs: Number(r.expires_at_ms) };
}

function params(a: AccountRow): unknown[] {
  return [
    a.accountId,
    a.apiKey,
    a.apiSecretHash,
    a.passphraseHash,
    a.isAdmin,
    a.enabled,
    a.label,
    a.tokensValidAfterS,
    a.cancelOnDisconnectDefault,
    a.createdAtMs,
  ];
}

async function notifyAccount(c: PgClient | PgPool, accountId: string): Promise<void> {
  await c.query(`SELECT pg_notify('${ACCOUNTS_CHANNEL}', $1)`, [`a:${accountId}`]);
}

export class PgAccountStore implements AccountStore {
  private feed: PgChangeFeed | undefined;

  constructor(
    private readonly pool: PgPool,
    private readonly url: string,
    private readonly health: PgHealth,
  ) {}

  get available(): boolean {
    return this.health.available;
  }

  listAccounts(): Promise<AccountRow[]> {
    return this.health.guard(async () =>
      (
        await this.pool.query<AccountColumns>('SELECT * FROM accounts ORDER BY created_at_ms, account_id')
      ).rows.map(accountFromColumns),
    );
  }

  getAccount(accountId: string): Promise<AccountRow | undefined> {
    return this.health.guard(async () => {
      const r = await this.pool.query<AccountColumns>('SELECT * FROM accounts WHERE account_id = $1', [
        accountId,
      ]);
      return r.rows[0] === undefined ? undefined : accountFromColumns(r.rows[0]);
    });
  }

  insertAccount(a: AccountRow): Promise<void> {
    return this.health.guard(async () => {
      await this.pool.query(notifyingAccount(`${INSERT} RETURNING account_id`), params(a));
    });
  }

  insertFirstAdmin(a: AccountRow): Promise<boolean> {
    return this.underAdminRule(async (c) => {
      const admins = await c.query('SELECT 1 FROM accounts WHERE is_admin LIMIT 1');
      if (admins.rowCount !== 0) return false;
      await c.query(INSERT, params({ ...a, isAdmin: true }));
      await notifyAccount(c, a.accountId);
      return true;
    });
  }

  disableUnlessLastAdmin(accountId: string): Promise<boolean> {
    return this.underAdminRule(async (c) => {
      const r = await c.query<{ is_admin: boolean; enabled: boolean; others: string }>(
        `SELECT is_admin, enabled, (SELECT COUNT(*) FROM accounts o WHERE o.is_admin AND o.enabled
           AND o.account_id <> a.account_id) AS others FROM accounts a WHERE account_id = $1`,
        [accountId],
      );
      const row = r.rows[0];
      if (row === undefined) return false;
      if (!row.enabled) return true;
      if (row.is_admin && Number(row.others) === 0) return false;
      await c.query('UPDATE accounts SET enabled = false WHERE account_id = $1', [accountId]);
      await notifyAccount(c, accountId);
      return true;
    });
  }

  enable(accountId: string): Promise<void> {
    return this.health.guard(async () => {
      await this.pool.query(
        notifyingAccount('UPDATE accounts SET enabled = true WHERE account_id = $1 RETURNING account_id'),
        [accountId],
      );
    });
  }

  raiseTokensValidAfter(accountId: string, seconds: number): Promise<number> {
    return this.health.guard(async () => {
      const r = await this.pool.query<{ s: string }>(
        notifyingAccount(
          `UPDATE accounts SET tokens_valid_after_s = GREATEST(tokens_valid_after_s, $2)
             WHERE account_id = $1 RETURNING account_id, tokens_valid_after_s`,
          ', tokens_valid_after_s AS s',
        ),
        [accountId, seconds],
      );
      return r.rows[0] === undefined ? seconds : Number(r.rows[0].s);
    });
  }

  setCancelOnDisconnectDefault(accountId: string, value: boolean): Promise<void> {
    return this.health.guard(async () => {
      await this.pool.query(
        notifyingAccount(
          `UPDATE accounts SET cancel_on_disconnect_default = $2 WHERE account_id = $1 RETURNING account_id`,
        ),
        [accountId, value],
      );
    });
  }

  insertRevokedToken(t: RevokedToken): Promise<void> {
    return this.health.guard(async () => {
      await this.pool.query(
        `WITH added AS (INSERT INTO revoked_tokens (jti, account_id, expires_at_ms) VALUES ($1, $2, $3)
           ON CONFLICT (jti) DO NOTHING RETURNING jti)
         SELECT pg_notify('${ACCOUNTS_CHANNEL}', 'j:' || jti) FROM added`,
        [t.jti, t.accountId, t.expiresAtMs],
      );
    });
  }

  revokedToken(jti: string): Promise<RevokedToken | undefined> {
    return this.health.guard(async () => {
      const r = await this.pool.query<RevokedPgRow>('SELECT * FROM revoked_tokens WHERE jti = $1', [jti]);
      return r.rows[0] === undefined ? undefined : toRevoked(r.rows[0]);
    });
  }

  liveRevokedTokens(nowMs: number): Promise<RevokedToken[]> {
    return this.health.guard(async () =>
      (
        await this.pool.query<RevokedPgRow>(
          'SELECT * FROM revoked_tokens WHERE expires_at_ms > $1 ORDER BY expires_at_ms, jti',
          [nowMs],
        )
      ).rows.map(toRevoked),
    );
  }

  pruneRevokedTokens(nowMs: number): Promise<number> {
    return this.health.guard(
      async () =>
        (await this.pool.query('DELETE FROM revoked_tokens WHERE expires_at_ms <= $1', [nowMs])).rowCount ??
        0,
    );
  }

  watch(watcher: StoreWatcher): void {
    this.feed = new PgChangeFeed(this.url, this.health, watcher);
    this.feed.start();
  }

  /** Stops the change feed; the pool belongs to the boot, which ends it. */
  async close(): Promise<void> {
    await this.feed?.close();
  }

  private underAdminRule<T>(fn: (c: PgClient) => Promise<T>): Promise<T> {
    return this.health.guard(() =>
      inTransaction(this.pool, async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1)', [ADMIN_RULE_LOCK]);
        return fn(c);
      }),
    );
  }
}
