/**
 * The bearer token: acquired by logging in, refreshed `refreshLeadMs` before it expires (or halfway
 * through a shorter one), one login at a time; a 403 1150 (suspended) stops every later call.
 */
import { tokenResponseCodec } from '@nightjar/protocol';
import type { Credentials } from './session-options.js';
import { parseResponse, type VenueSend, type WithRetry } from './venue-request.js';
import { isNightjarError, type NightjarError } from './errors/index.js';

/** The token state of one session. */
export interface TokenKeeper {
  /** A valid bearer token, refreshed when close to expiry. */
  accessToken(): Promise<string>;
  /** Forces a new token. */
  refreshToken(): Promise<string>;
  /** When the current token expires (Unix ms) and its lifetime (ms); undefined before login. */
  tokenExpiry(): { expiresAt: number; lifetimeMs: number } | undefined;
  /** The account the token belongs to ('' before login). */
  accountId(): string;
  /** Forgets `bearer` if it is the current token (after a 401), so the next call logs in again. */
  drop(bearer: string): void;
  /** Stops the session: every later token call throws `err`. */
  suspend(err: NightjarError<1150>): void;
}

/** A token keeper logging in with `credentials` through `send`. */
export function tokenKeeper(
  credentials: Credentials,
  send: VenueSend,
  withRetry: WithRetry,
  refreshLeadMs: number,
): TokenKeeper {
  let token: { value: string; expiresAt: number; lifetimeMs: number } | undefined;
  let pendingToken: Promise<string> | undefined;
  let suspended: NightjarError<1150> | undefined;
  let accountId = '';

  const login = async (): Promise<string> => {
    const { api_key, api_secret, passphrase } = credentials;
    const body = await withRetry(
      () => send('/auth/token', 'POST', { api_key, api_secret, passphrase }),
      true,
    ).catch((err: unknown) => {
      if (isNightjarError(err, 1150)) suspended = err;
      throw err;
    });
    const r = parseResponse(tokenResponseCodec, body, '/auth/token');
    accountId = r.account_id;
    const lifetimeMs = Number(r.expires_in) * 1000;
    token = { value: r.access_token, expiresAt: Date.now() + lifetimeMs, lifetimeMs };
    return r.access_token;
  };

  /** Refreshes `refreshLeadMs` before expiry, or halfway through a token shorter than twice that. */
  const leadOf = (t: { lifetimeMs: number }) => Math.min(refreshLeadMs, t.lifetimeMs / 2);
  const refreshToken = (): Promise<string> => {
    if (suspended) return Promise.reject(suspended);
    pendingToken ??= login().finally(() => (pendingToken = undefined));
    return pendingToken;
  };
  return {
    async accessToken() {
      if (suspended) throw suspended;
      if (token && Date.now() < token.expiresAt - leadOf(token)) return token.value;
      return refreshToken();
    },
    refreshToken,
    tokenExpiry: () => (token ? { expiresAt: token.expiresAt, lifetimeMs: token.lifetimeMs } : undefined),
    accountId: () => accountId,
    drop(bearer) {
      if (token?.value === bearer) token = undefined;
    },
    suspend(err) {
      suspended = err;
    },
  };
}
