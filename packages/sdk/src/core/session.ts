/**
 * A venue session: the transport verified before anything is sent (the attestation checks (a)–(d),
 * on the very socket that then carries the token); the bearer token acquired and refreshed before
 * it expires; a 401 retried once with a fresh token; 403 1150 stops the session; 429, 1402 and 5001
 * (and network failures) retried with jittered backoff honouring `Retry-After`. `createClient`
 * adds the wallet and the prover on top.
 */
import type { LedgerClient } from '@nightjar/protocol/ledger-client';
import { instrumentCodec, type Codec, type Instrument } from '@nightjar/protocol';
import type { NonceStore } from './nonce-store.js';
import {
  collateralSource,
  rootDer,
  sessionLedger,
  sessionNonces,
  type VenueSessionParameters,
} from './session-options.js';
import { tokenKeeper, type TokenKeeper } from './tokens.js';
import { createTransport, type Transport } from './transport/index.js';
import { DEFAULT_BACKOFF } from './utils/backoff.js';
import { parseResponse, retrier, venueSender, type VenueSend } from './venue-request.js';
import { isNightjarError, VENUE_ANSWER_CODES } from './errors/index.js';

/** Options of `client.request`. */
export interface ClientRequestOptions<T = unknown> {
  method?: string;
  body?: unknown;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Retry retryable failures (default true). */
  retry?: boolean;
  /**
   * The protocol's codec of the answer (`orderStatusCodec`...): the body is parsed with it, and one
   * that does not match throws `INVALID_RESPONSE`. Without it the body is returned as parsed.
   */
  codec?: Codec<T>;
}

/** A verified, logged-in connection to a venue: what every layer above talks to the venue through. */
export interface VenueSession {
  readonly baseUrl: string;
  readonly transport: Transport;
  /**
   * The ledger (the one passed to `createClient`, or a client of `ledgerUrl`), its calls' failures
   * typed: `LEDGER_UNAVAILABLE` (unreachable, timed out) or `LEDGER_ERROR` (a JSON-RPC error).
   */
  readonly ledger: LedgerClient;
  readonly nonces: NonceStore;
  readonly slotMs: number;
  /** The account the token belongs to. */
  readonly accountId: string;
  /** A valid bearer token, refreshed when close to expiry. */
  accessToken(): Promise<string>;
  /** Forces a new token (the stream does this on `auth_expired`). */
  refreshToken(): Promise<string>;
  /** When the current token expires (Unix ms) and its lifetime (ms); undefined before login. */
  tokenExpiry(): { expiresAt: number; lifetimeMs: number } | undefined;
  /** How long before expiry a token is refreshed (ms). */
  readonly refreshLeadMs: number;
  /** The verified boot session id (re-verified after a reconnect). */
  bootSessionId(): Promise<string>;
  /** A REST call with auth, retry and typed errors; returns the exactly parsed body (checked by `codec`). */
  request<T>(path: string, options?: ClientRequestOptions<T>): Promise<T>;
  /** Instrument metadata, cached. */
  instrument(symbol: string): Promise<Instrument>;
  /** Closes the sockets and the ledger client (if the session made it). */
  close(): Promise<void>;
}

/** One authenticated call: the bearer, and on a 401 one more try with a fresh token. */
async function sendAuthed(send: VenueSend, tokens: TokenKeeper, path: string, method: string, body: unknown) {
  const bearer = await tokens.accessToken();
  try {
    return await send(path, method, body, bearer);
  } catch (err) {
    if (isNightjarError(err, 1150)) {
      tokens.suspend(err);
      throw err;
    }
    // Any 401: a fresh token and one more try.
    if (isNightjarError(err, VENUE_ANSWER_CODES) && err.context.status === 401) {
      tokens.drop(bearer);
      return send(path, method, body, await tokens.accessToken());
    }
    throw err;
  }
}

/** Opens a session: verifies the transport, then logs in; closes what it opened if either fails. */
export async function openVenueSession(params: VenueSessionParameters): Promise<VenueSession> {
  // Checked before anything is opened: a bad root leaves nothing to close.
  const rootCaDer = rootDer(params.pinnedRoot);
  const ownsLedger = !params.ledger;
  const ledger = sessionLedger(params);
  const transport = createTransport({
    url: params.baseUrl,
    rootCaDer,
    composeHash: params.composeHash,
    ledger,
    ...(params.pinnedMeasurements ? { measurements: params.pinnedMeasurements } : {}),
    ...collateralSource(params),
    ...(params.onVerified ? { onVerified: params.onVerified } : {}),
  });
  const send = venueSender(transport);
  const withRetry = retrier({ ...DEFAULT_BACKOFF, ...params.backoff }, params.onRetry);
  const refreshLeadMs = params.refreshLeadMs ?? 60_000;
  const tokens = tokenKeeper(params.credentials, send, withRetry, refreshLeadMs);
  const instruments = new Map<string, Instrument>();

  const session: VenueSession = {
    baseUrl: params.baseUrl,
    transport,
    ledger,
    nonces: sessionNonces(params),
    slotMs: params.slotMs ?? 400,
    get accountId() {
      return tokens.accountId();
    },
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    tokenExpiry: tokens.tokenExpiry,
    refreshLeadMs,
    async bootSessionId() {
      return (await transport.verify()).bootSessionId;
    },
    async request<T>(path: string, options: ClientRequestOptions<T> = {}): Promise<T> {
      const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
      const once = () =>
        (options.auth ?? true)
          ? sendAuthed(send, tokens, path, method, options.body)
          : send(path, method, options.body);
      const body = await withRetry(once, options.retry ?? true);
      return options.codec ? parseResponse(options.codec, body, path) : (body as T);
    },
    async instrument(symbol: string) {
      const cached = instruments.get(symbol);
      if (cached) return cached;
      const inst = await session.request(`/instruments/${encodeURIComponent(symbol)}`, {
        auth: false,
        codec: instrumentCodec,
      });
      instruments.set(symbol, inst);
      return inst;
    },
    async close() {
      transport.close();
      if (ownsLedger) await ledger.close();
    },
  };

  // Verify first (nothing is sent on an unverified socket), then log in.
  try {
    await transport.verify();
    await tokens.accessToken();
  } catch (err) {
    await session.close();
    throw err;
  }
  return session;
}
