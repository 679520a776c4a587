/**
 * Accounts, credentials and bearer tokens (spec "Authentication" rules 1–8 and 14).
 *
 * Every account is cached in memory (`AccountCache`: the table is operator-sized) and the cache
 * is updated synchronously with each admin change, so {@link AccountService.authenticate}, which
 * runs on every request, costs one HMAC and three map lookups and never touches SQLite.
 *
 * Login order (`POST /auth/token`):
 *   1. unknown api_key → 401 1101, before any hashing and without touching any rate limit;
 *   2. the account's login bucket → 429 1401 "too many login attempts; retry in about N s";
 *   3. a free verification slot → 503 1402 (the bucket charge of step 2 is refunded: no work done);
 *   4. both secrets verified with Argon2id, always both → 401 1101 "bad credentials" on any mismatch;
 *   5. disabled → 403 1150 "account disabled". Checked after a successful verification, so
 *      someone holding only the (public) api_key cannot learn whether the account is suspended.
 *
 * Token checks (`authenticate`): malformed or forged → expired (`now >= expires_at`, no grace)
 * → issued in the future (beyond {@link TOKEN_CLOCK_SKEW_MS}) or living longer than the token
 * lifetime allows (such a token was never issued here: it would outlive `revoke-tokens`)
 * → revoked (denylist) → unknown account → issued at or before the account's
 * `tokens_valid_after_s` (all 401 1101) → account disabled (403 1150).
 *
 * Memory: the account maps hold the accounts table; the revoked-token denylist is bounded as
 * {@link TokenDenylist} says; login buckets are bounded by the {@link RateLimiter}.
 */
import { randomBytes } from 'node:crypto';
import type { SqliteDb as Database } from '@nightjar/ledger';
import {
  MAX_TOKEN_TTL_SECONDS,
  VenueError,
  type AccountSettings,
  type AccountStateResponse,
  type CreateAccountRequest,
  type CreatedAccountResponse,
  type RevokeResponse,
  type TokenRequest,
  type TokenResponse,
} from '@nightjar/protocol';
import {
  CredentialHasher,
  generateAccountId,
  generateApiKey,
  generateSecret,
  type CredentialHasherOptions,
} from './credential-hasher.js';
import { TokenDenylist } from './denylist.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { AccountStore, type AccountRow } from './store.js';
import { AccountCache } from './account-cache.js';
import { TokenCodec, TOKEN_LENGTH } from './tokens.js';

/** The authenticated caller of a request or stream session. */
export interface Principal {
  accountId: string;
  apiKey: string;
  /** Current admin flag of the account (not a claim of the token). */
  isAdmin: boolean;
  jti: string;
  issuedAtS: number;
  expiresAtMs: number;
}

/** Per-account login allowance: a burst of 10 attempts, then one every 2 seconds. */
export const DEFAULT_LOGIN_RATE_LIMIT = Object.freeze({ capacity: 10, refillPerSecond: 0.5 });

const DEV_ADMIN_LABEL = 'dev-admin';

/** How far in the future a token's `issued_at` may lie (clock steps between issue and check). */
export const TOKEN_CLOCK_SKEW_MS = 30_000;

/** State changes a long-lived session (the stream) must act on at once. Listeners must not throw. */
export type AccountEvent =
  | { type: 'disabled' | 'enabled' | 'tokens-revoked'; accountId: string }
  | { type: 'token-revoked'; accountId: string; jti: string };

export interface AccountServiceOptions {
  /** An open database; the store creates its tables if absent. */
  db: Database;
  /** Milliseconds since the Unix epoch; every expiry and rate decision uses it. */
  now?: () => number;
  /** Token lifetime in whole seconds, 1 to 3600; default 3600. Longer-lived tokens are refused. */
  tokenTtlSeconds?: number;
  /**
   * The 32-byte token MAC key (token-key.ts: never in the database). Default: a fresh one, so
   * tokens die with this service.
   */
  tokenKey?: Uint8Array;
  /** A hasher, or options for one (Argon2 parameters default to OWASP's; 4 concurrent verifications). */
  hasher?: CredentialHasher | CredentialHasherOptions;
  /** Per-account login bucket; default {@link DEFAULT_LOGIN_RATE_LIMIT}. */
  loginRateLimit?: { capacity: number; refillPerSecond: number; maxEntries?: number };
}

interface GeneratedCredentials {
  apiSecret: string;
  passphrase: string;
  apiSecretHash: string;
  passphraseHash: string;
}

export interface AccountServiceStats {
  accounts: number;
  enabledAdmins: number;
  denylisted: number;
  loginBuckets: number;
  verificationsInFlight: number;
}

export class AccountService {
  readonly tokenTtlSeconds: number;
  readonly hasher: CredentialHasher;
  private readonly store: AccountStore;
  private readonly now: () => number;
  private readonly tokens: TokenCodec;
  private readonly loginLimiter: RateLimiter;
  private readonly accounts = new AccountCache();
  private readonly denylist: TokenDenylist;
  private readonly listeners = new Set<(event: AccountEvent) => void>();

  constructor(options: AccountServiceOptions) {
    const ttl = options.tokenTtlSeconds ?? MAX_TOKEN_TTL_SECONDS;
    if (!Number.isSafeInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_TTL_SECONDS)
      throw new RangeError(`tokenTtlSeconds must be an integer from 1 to ${MAX_TOKEN_TTL_SECONDS}`);
    this.tokenTtlSeconds = ttl;
    this.now = options.now ?? Date.now;
    this.hasher =
      options.hasher instanceof CredentialHasher ? options.hasher : new CredentialHasher(options.hasher);
    const limit = options.loginRateLimit ?? DEFAULT_LOGIN_RATE_LIMIT;
    this.loginLimiter = new RateLimiter({ ...limit, now: this.now });
    this.store = new AccountStore(options.db);
    this.tokens = new TokenCodec(options.tokenKey ?? randomBytes(32));
    for (const row of this.store.listAccounts()) this.accounts.add(row);
    this.denylist = new TokenDenylist(this.store, this.now);
  }

  // ---------------------------------------------------------------- login and tokens

  /** `POST /auth/token`: exchanges credentials for a bearer token (order of checks: module doc). */
  async login(request: TokenRequest): Promise<TokenResponse> {
    const account = this.accounts.byKey(request.api_key);
    if (account === undefined) throw new VenueError(1101, 'bad credentials');
    const taken = this.loginLimiter.take(account.accountId, 1);
    if (!taken.ok) {
      const seconds = Math.max(1, Math.ceil(taken.retryAfterSeconds));
      throw new VenueError(1401, `too many login attempts; retry in about ${seconds} s`, {
        retryAfterSeconds: seconds,
      });
    }
    const verification = this.hasher.tryVerify([
      { hash: account.apiSecretHash, secret: request.api_secret },
      { hash: account.passphraseHash, secret: request.passphrase },
    ]);
    if (verification === undefined) {
      this.loginLimiter.refund(account.accountId, 1);
      throw new VenueError(1402, 'credential verification at capacity; retry shortly');
    }
    if (!(await verification)) throw new VenueError(1101, 'bad credentials');
    // The cached row is live: a disable that landed during verification is seen here.
    if (!account.enabled) throw new VenueError(1150, 'account disabled');
    const now = this.now();
    const { token } = this.tokens.issue(
      account.accountId,
      Math.floor(now / 1000),
      now + this.tokenTtlSeconds * 1000,
    );
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.tokenTtlSeconds,
      account_id: account.accountId,
    };
  }

  /** Checks an `Authorization` header value (`Bearer <token>`); throws 401 1101 or 403 1150. */
  authenticate(authorization: string | undefined): Principal {
    if (authorization === undefined || authorization.length === 0)
      throw new VenueError(1101, 'missing bearer token');
    const space = authorization.indexOf(' ');
    if (space < 0 || authorization.slice(0, space).toLowerCase() !== 'bearer')
      throw new VenueError(1101, 'authorization must be Bearer <access_token>');
    return this.authenticateToken(authorization.slice(space + 1).trim());
  }

  /** Checks a bare token (stream `login`); throws 401 1101 or 403 1150. */
  authenticateToken(token: string): Principal {
    if (token.length !== TOKEN_LENGTH) throw new VenueError(1101, 'invalid token');
    const claims = this.tokens.verify(token);
    if (claims === undefined) throw new VenueError(1101, 'invalid token');
    return this.check(claims.accountId, claims.jti, claims.issuedAtS, claims.expiresAtMs);
  }

  /**
   * Re-applies every rule to an earlier principal (a stream session between frames): expiry,
   * revocation, operator invalidation, suspension. Returns it with the current admin flag.
   */
  revalidate(principal: Principal): Principal {
    return this.check(principal.accountId, principal.jti, principal.issuedAtS, principal.expiresAtMs);
  }

  /** `POST /auth/token/revoke`: denylists the caller's token until it would have expired. */
  revoke(principal: Principal): RevokeResponse {
    const { jti, accountId, expiresAtMs } = principal;
    this.denylist.add({ jti, accountId, expiresAtMs });
    this.emit({ type: 'token-revoked', accountId: principal.accountId, jti: principal.jti });
    return { revoked: true };
  }

  /** Drops denylist entries (memory and disk) whose tokens have expired; returns how many. */
  pruneDenylist(): number {
    return this.denylist.prune();
  }

  // ---------------------------------------------------------------- admin

  /** `POST /admin/accounts`: generates credentials and returns them; only hashes are kept. */
  async createAccount(request: CreateAccountRequest = {}): Promise<CreatedAccountResponse> {
    const creds = await this.generateCredentials();
    return this.insert(request.is_admin ?? false, request.label ?? null, creds);
  }

  /** Suspends an account; refuses to disable the last enabled admin (409 1206). Idempotent. */
  disable(apiKey: string): AccountStateResponse {
    const account = this.accounts.require(apiKey);
    if (account.enabled) {
      if (account.isAdmin && this.accounts.enabledAdminCount() <= 1)
        throw new VenueError(1206, 'change refused: would leave no enabled admin account');
      this.store.setEnabled(account.accountId, false);
      account.enabled = false;
      this.emit({ type: 'disabled', accountId: account.accountId });
    }
    return stateOf(account);
  }

  /** Reinstates an account: its unexpired, unrevoked tokens work again. Idempotent. */
  enable(apiKey: string): AccountStateResponse {
    const account = this.accounts.require(apiKey);
    if (!account.enabled) {
      this.store.setEnabled(account.accountId, true);
      account.enabled = true;
      this.emit({ type: 'enabled', accountId: account.accountId });
    }
    return stateOf(account);
  }

  /**
   * Invalidates every token issued up to and including the current second (one-second
   * resolution: a token issued later in this same second is refused too; the next second's works).
   */
  revokeTokens(apiKey: string): AccountStateResponse {
    const account = this.accounts.require(apiKey);
    const seconds = Math.max(account.tokensValidAfterS, Math.floor(this.now() / 1000));
    this.store.setTokensValidAfter(account.accountId, seconds);
    account.tokensValidAfterS = seconds;
    this.emit({ type: 'tokens-revoked', accountId: account.accountId });
    return stateOf(account);
  }

  /**
   * Creates an enabled admin labelled `dev-admin` if the venue has no admin account at all and
   * returns its credentials (for `ready.json` in dev mode); `undefined` when an admin exists.
   */
  ensureDevAdmin(): Promise<CreatedAccountResponse | undefined> {
    return this.ensureFirstAdmin(DEV_ADMIN_LABEL);
  }

  /** Creates the venue's first admin, labelled `label`, unless an admin exists; its credentials once. */
  async ensureFirstAdmin(label: string): Promise<CreatedAccountResponse | undefined> {
    if (this.accounts.hasAdmin()) return undefined;
    const creds = await this.generateCredentials();
    if (this.accounts.hasAdmin()) return undefined; // another call won the race while hashing
    return this.insert(true, label, creds);
  }

  // ---------------------------------------------------------------- settings

  getSettings(accountId: string): AccountSettings {
    return { cancel_on_disconnect_default: this.accounts.requireId(accountId).cancelOnDisconnectDefault };
  }

  putSettings(accountId: string, settings: AccountSettings): AccountSettings {
    const account = this.accounts.requireId(accountId);
    this.store.setCancelOnDisconnectDefault(accountId, settings.cancel_on_disconnect_default);
    account.cancelOnDisconnectDefault = settings.cancel_on_disconnect_default;
    return { cancel_on_disconnect_default: account.cancelOnDisconnectDefault };
  }

  // ---------------------------------------------------------------- observation

  /** Subscribes to state changes; returns the unsubscribe function. */
  onChange(listener: (event: AccountEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  stats(): AccountServiceStats {
    return {
      accounts: this.accounts.size,
      enabledAdmins: this.accounts.enabledAdminCount(),
      denylisted: this.denylist.size,
      loginBuckets: this.loginLimiter.size,
      verificationsInFlight: this.hasher.inFlight,
    };
  }

  // ---------------------------------------------------------------- internals

  private check(accountId: string, jti: string, issuedAtS: number, expiresAtMs: number): Principal {
    const now = this.now();
    if (now >= expiresAtMs) throw new VenueError(1101, 'token expired');
    // issued_at is whole seconds (floored), so a genuine lifetime is at most the TTL plus 1 s.
    if (
      issuedAtS * 1000 > now + TOKEN_CLOCK_SKEW_MS ||
      expiresAtMs - issuedAtS * 1000 > (this.tokenTtlSeconds + 1) * 1000
    )
      throw new VenueError(1101, 'invalid token');
    if (this.denylist.has(jti)) throw new VenueError(1101, 'token revoked');
    const account = this.accounts.get(accountId);
    if (account === undefined) throw new VenueError(1101, 'invalid token');
    if (issuedAtS <= account.tokensValidAfterS)
      throw new VenueError(1101, 'token invalidated by an operator');
    if (!account.enabled) throw new VenueError(1150, 'account disabled');
    return { accountId, apiKey: account.apiKey, isAdmin: account.isAdmin, jti, issuedAtS, expiresAtMs };
  }

  /** Fresh credentials and their hashes (the slow, asynchronous half of creating an account). */
  private async generateCredentials(): Promise<GeneratedCredentials> {
    const apiSecret = generateSecret();
    const passphrase = generateSecret();
    const [apiSecretHash, passphraseHash] = await Promise.all([
      this.hasher.hash(apiSecret),
      this.hasher.hash(passphrase),
    ]);
    return { apiSecret, passphrase, apiSecretHash, passphraseHash };
  }

  /** Stores and caches a new account (synchronous, so checks made just before it still hold). */
  private insert(
    isAdmin: boolean,
    label: string | null,
    creds: GeneratedCredentials,
  ): CreatedAccountResponse {
    const row: AccountRow = {
      accountId: generateAccountId(),
      apiKey: generateApiKey(),
      apiSecretHash: creds.apiSecretHash,
      passphraseHash: creds.passphraseHash,
      isAdmin,
      enabled: true,
      label,
      tokensValidAfterS: 0,
      cancelOnDisconnectDefault: false,
      createdAtMs: this.now(),
    };
    this.store.insertAccount(row);
    this.accounts.add(row);
    return {
      account_id: row.accountId,
      api_key: row.apiKey,
      api_secret: creds.apiSecret,
      passphrase: creds.passphrase,
      is_admin: isAdmin,
    };
  }

  private emit(event: AccountEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function stateOf(a: AccountRow): AccountStateResponse {
  return { account_id: a.accountId, api_key: a.apiKey, is_admin: a.isAdmin, enabled: a.enabled };
}
