/**
 * Durable account state behind one interface with two implementations: the engine's SQLite file
 * (`sqlite-store.ts`, the embedded default) and PostgreSQL shared by several engines
 * (`pg-store.ts`, `--store postgres://…`). Accounts (secrets only as Argon2id hashes), settings and
 * the revoked-token denylist (each row kept until its token would have expired anyway). The token
 * MAC key is never here (token-key.ts). A store does no caching; {@link AccountService} does.
 */

export interface AccountRow {
  accountId: string;
  apiKey: string;
  apiSecretHash: string;
  passphraseHash: string;
  isAdmin: boolean;
  enabled: boolean;
  label: string | null;
  /** Tokens issued in this second or earlier are invalid (operator invalidation). */
  tokensValidAfterS: number;
  cancelOnDisconnectDefault: boolean;
  createdAtMs: number;
}

/**
 * An `accounts` row as either database returns it: SQLite's 0/1 integers, PostgreSQL's booleans
 * and bigints (as strings).
 */
export interface AccountColumns {
  account_id: string;
  api_key: string;
  api_secret_hash: string;
  passphrase_hash: string;
  is_admin: boolean | number;
  enabled: boolean | number;
  label: string | null;
  tokens_valid_after_s: number | string;
  cancel_on_disconnect_default: boolean | number;
  created_at_ms: number | string;
}

export function accountFromColumns(c: AccountColumns): AccountRow {
  return {
    accountId: c.account_id,
    apiKey: c.api_key,
    apiSecretHash: c.api_secret_hash,
    passphraseHash: c.passphrase_hash,
    isAdmin: Boolean(c.is_admin),
    enabled: Boolean(c.enabled),
    label: c.label,
    tokensValidAfterS: Number(c.tokens_valid_after_s),
    cancelOnDisconnectDefault: Boolean(c.cancel_on_disconnect_default),
    createdAtMs: Number(c.created_at_ms),
  };
}

export interface RevokedToken {
  jti: string;
  accountId: string;
  expiresAtMs: number;
}

/** What another engine changed (names an account or a jti only: never a secret or a hash). */
export type StoreChange = { accountId: string } | { jti: string };

/** How a store that several engines share tells this one about their changes. */
export interface StoreWatcher {
  /** Another (or this) engine changed this account or revoked this jti: reload it. */
  changed(change: StoreChange): Promise<void>;
  /** The change feed (re)connected, after changes may have been missed: reload everything. */
  resync(): Promise<void>;
}

export interface AccountStore {
  /** False while a shared store is unreachable (requests answer 503 5001 meanwhile). */
  readonly available: boolean;
  listAccounts(): Promise<AccountRow[]>;
  getAccount(accountId: string): Promise<AccountRow | undefined>;
  insertAccount(row: AccountRow): Promise<void>;
  /** Inserts `row` (an admin) only if no admin exists, in one step; says whether it did. */
  insertFirstAdmin(row: AccountRow): Promise<boolean>;
  /**
   * Disables the account unless it is the last enabled admin, in one step: `false` when refused.
   * Disabling an already disabled account succeeds.
   */
  disableUnlessLastAdmin(accountId: string): Promise<boolean>;
  enable(accountId: string): Promise<void>;
  /** Raises `tokens_valid_after_s` to at least `seconds`; returns the stored value. */
  raiseTokensValidAfter(accountId: string, seconds: number): Promise<number>;
  setCancelOnDisconnectDefault(accountId: string, value: boolean): Promise<void>;
  insertRevokedToken(t: RevokedToken): Promise<void>;
  /** The denylist entry of `jti`, if any. */
  revokedToken(jti: string): Promise<RevokedToken | undefined>;
  /** Denylist entries whose tokens have not expired by `nowMs`. */
  liveRevokedTokens(nowMs: number): Promise<RevokedToken[]>;
  /** Deletes denylist entries whose tokens have expired by `nowMs`; returns how many. */
  pruneRevokedTokens(nowMs: number): Promise<number>;
  /** A shared store calls `watcher` on every change any engine makes (a local store never does). */
  watch?(watcher: StoreWatcher): void;
  close(): Promise<void>;
}
