/**
 * Accounts, credentials and bearer tokens (spec "Authentication" rules 1–8 and 14).
 *
 * Every account is cached in memory (`AccountCache`: the table is operator-sized); each change is
 * written to the store first, then to the cache, so {@link AccountService.authenticate}, which runs
 * on every request, costs one HMAC and three map lookups and never touches the store. A store
 * several engines share (PostgreSQL) reports their changes to {@link AccountSync}; while it is
 * unreachable every token check answers 503 5001 (the cache may be stale).
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
 * `tokens_valid_after_s` (all 401 1101) → account disabled (403 1150) → shared store unreachable
 * (503 5001).
 *
 * Memory: the account maps hold the accounts table; the revoked-token denylist is bounded as
 * {@link TokenDenylist} says; login buckets are bounded by the {@link RateLimiter}.
 */
import { randomBytes } from 'node:crypto';
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
import { CredentialHasher, type CredentialHasherOptions } from './credential-hasher.js';
import {
  createdResponse,
  generateCredentials,
  newAccountRow,
  type GeneratedCredentials,
} from './new-account.js';
import { TokenDenylist } from './denylist.js';
import type { AccountLimiter } from '../limits/account-limiter.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { storeUnavailable } from '../pg/health.js';
import type { AccountRow, AccountStore } from './store.js';
import { AccountCache } from './account-cache.js';
import { AccountSync, type AccountEvent } from './account-sync.js';
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

export type { AccountEvent };

export interface AccountServiceOptions {
  /** The account store (sqlite-store.ts or pg-store.ts). */
  store: AccountStore;
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
  /** A login limiter shared by several engines (then `loginRateLimit` is ignored). */
  loginLimiter?: AccountLimiter;
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
  private readonly loginLimiter: AccountLimiter;
  private readonly accounts = new AccountCache();
  private denylist!: TokenDenylist;
  private sync!: AccountSync;
  private readonly listeners = new Set<(event: AccountEvent) => void>();

  /** Loads every account and the live denylist, then follows a shared store's changes. */
  static async open(options: AccountServiceOptions): Promise<AccountService> {
    const service = new AccountService(options);
    for (const row of await service.store.listAccounts()) service.accounts.add(row);
    service.denylist = await TokenDenylist.load(service.store, service.now);
    service.sync = new AccountSync(service.store, service.accounts, service.denylist, (e) => service.emit(e));
    service.store.watch?.(service.sync);
    return service;
  }

  private constructor(options: AccountServiceOptions) {
    const ttl = options.tokenTtlSeconds ?? MAX_TOKEN_TTL_SECONDS;
    if (!Number.isSafeInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_TTL_SECONDS)
      throw new RangeError(`tokenTtlSeconds must be an integer from 1 to ${MAX_TOKEN_TTL_SECONDS}`);
    this.tokenTtlSeconds = ttl;
    this.now = options.now ?? Date.now;
    this.hasher =
      options.hasher instanceof CredentialHasher ? options.hasher : new CredentialHasher(options.hasher);
    const limit = options.loginRateLimit ?? DEFAULT_LOGIN_RATE_LIMIT;
    this.loginLimiter = options.loginLimiter ?? new RateLimiter({ ...limit, now: this.now });
    this.store = options.store;
    this.tokens = new TokenCodec(options.tokenKey ?? randomBytes(32));
  }

  // ---------------------------------------------------------------- login and tokens

  /** `POST /auth/token`: exchanges credentials for a bearer token (order of checks: module doc). */
  async login(request: TokenRequest): Promise<TokenResponse> {
    if (!this.store.available) throw storeUnavailable();
    const account = this.accounts.byKey(request.api_key);
    if (account === undefined) throw new VenueError(1101, 'bad credentials');
    const taken = await this.loginLimiter.take(account.accountId, 1);
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
      await this.loginLimiter.refund(account.accountId, 1);
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
  async revoke(principal: Principal): Promise<RevokeResponse> {
    const { jti, accountId, expiresAtMs } = principal;
    await this.denylist.add({ jti, accountId, expiresAtMs });
    this.emit({ type: 'token-revoked', accountId: principal.accountId, jti: principal.jti });
    return { revoked: true };
  }

  /** Drops denylist entries (memory and store) whose tokens have expired; returns how many. */
  pruneDenylist(): Promise<number> {
    return this.denylist.prune();
  }

  // ---------------------------------------------------------------- admin

  /** `POST /admin/accounts`: generates credentials and returns them; only hashes are kept. */
  async createAccount(request: CreateAccountRequest = {}): Promise<CreatedAccountResponse> {
    const creds = await generateCredentials(this.hasher);
    const row = newAccountRow(this.now(), request.is_admin ?? false, request.label ?? null, creds);
    await this.store.insertAccount(row);
    return this.cache(row, creds);
  }

  /**
   * Suspends an account; refuses to disable the last enabled admin (409 1206), checked by the
   * store in the same step as the write (so two engines racing cannot both pass). Idempotent.
   */
  async disable(apiKey: string): Promise<AccountStateResponse> {
    const account = this.accounts.require(apiKey);
    if (account.enabled) {
      if (!(await this.store.disableUnlessLastAdmin(account.accountId)))
        throw new VenueError(1206, 'change refused: would leave no enabled admin account');
      // The change feed may have applied (and announced) it meanwhile.
      if (account.enabled) {
        account.enabled = false;
        this.emit({ type: 'disabled', accountId: account.accountId });
      }
    }
    return stateOf(account);
  }

  /** Reinstates an account: its unexpired, unrevoked tokens work again. Idempotent. */
  async enable(apiKey: string): Promise<AccountStateResponse> {
    const account = this.accounts.require(apiKey);
    if (!account.enabled) {
      await this.store.enable(account.accountId);
      if (!account.enabled) {
        account.enabled = true;
        this.emit({ type: 'enabled', accountId: account.accountId });
      }
    }
    return stateOf(account);
  }

  /**
   * Invalidates every token issued up to and including the current second (one-second
   * resolution: a token issued later in this same second is refused too; the next second's works).
   */
  async revokeTokens(apiKey: string): Promise<AccountStateResponse> {
    const account = this.accounts.require(apiKey);
    const wanted = Math.max(account.tokensValidAfterS, Math.floor(this.now() / 1000));
    const seconds = await this.store.raiseTokensValidAfter(account.accountId, wanted);
    account.tokensValidAfterS = Math.max(account.tokensValidAfterS, seconds);
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
    const creds = await generateCredentials(this.hasher);
    if (this.accounts.hasAdmin()) return undefined; // another call won the race while hashing
    const row = newAccountRow(this.now(), true, label, creds);
    // Another engine (or call) may have made one meanwhile: the store decides, in one step.
    if (!(await this.store.insertFirstAdmin(row))) {
      await this.sync.resync();
      return undefined;
    }
    return this.cache(row, creds);
  }

  // ---------------------------------------------------------------- settings

  getSettings(accountId: string): AccountSettings {
    return { cancel_on_disconnect_default: this.accounts.requireId(accountId).cancelOnDisconnectDefault };
  }

  async putSettings(accountId: string, settings: AccountSettings): Promise<AccountSettings> {
    const account = this.accounts.requireId(accountId);
    await this.store.setCancelOnDisconnectDefault(accountId, settings.cancel_on_disconnect_default);
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
      loginBuckets: this.loginLimiter.size ?? 0,
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
    // Last: the cache may be stale while a shared store is unreachable, but what it already
    // refuses stays refused (a stream session of a suspended account still closes).
    if (!this.store.available) throw storeUnavailable();
    return { accountId, apiKey: account.apiKey, isAdmin: account.isAdmin, jti, issuedAtS, expiresAtMs };
  }

  /** Caches a stored account and answers with its credentials (shown this once). */
  private cache(row: AccountRow, creds: GeneratedCredentials): CreatedAccountResponse {
    this.accounts.add(row);
    return createdResponse(row, creds);
  }

  private emit(event: AccountEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function stateOf(a: AccountRow): AccountStateResponse {
  return { account_id: a.accountId, api_key: a.apiKey, is_admin: a.isAdmin, enabled: a.enabled };
}
