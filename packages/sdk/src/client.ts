/**
 * `createClient`: a verified, logged-in connection to a venue. The transport is verified before
 * anything is sent (the attestation checks (a)–(d), on the very socket that then carries the
 * token); the bearer token is acquired and refreshed before it expires; a 401 is retried once
 * with a fresh token; 403 1150 stops the client; 429, 1402 and 5001 (and network failures) are
 * retried with jittered backoff honouring `Retry-After`.
 */
import { FreshNoteHold, type FreshNoteHoldOptions } from './notes/fresh-note-hold.js';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import {
  NoteProver,
  type JoinSplitWitness,
  type ProofResult,
  type ValidInputV2Params,
  type ValidJoinSplitParams,
  type ValidSpendV2Params,
} from '@nightjar/circuits';
import { RpcLedgerClient, type LedgerClient, type LedgerClientTls } from '@nightjar/ledger/client';
import {
  FieldError,
  instrumentCodec,
  tokenResponseCodec,
  type Codec,
  type Instrument,
} from '@nightjar/protocol';
import {
  AccountSuspendedError,
  InvalidResponseError,
  LedgerError,
  NetworkError,
  NightjarError,
  ParameterError,
  VenueRequestError,
  venueError,
} from './errors.js';
import { fileNonceStore, memoryNonceStore, type NonceStore } from './nonce-store.js';
import {
  createTransport,
  pccsCollateralFetcher,
  type CollateralFetcher,
  type PinnedMeasurements,
  type Transport,
  type VerifyTransportReturnType,
} from './transport/index.js';
import { TransportError } from './transport/errors.js';
import { backoffDelay, sleep, type BackoffOptions, DEFAULT_BACKOFF } from './utils/backoff.js';
import { typedLedger } from './utils/typed-ledger.js';
import type { Wallet } from './wallet/wallet.js';

/** Account credentials, provisioned out of band. */
export interface Credentials {
  api_key: string;
  api_secret: string;
  passphrase: string;
}

/** A VALID_JOIN_SPLIT proof with what the witness derived: each input's root and nullifier, each output. */
export type JoinSplitProofResult = ProofResult & Pick<JoinSplitWitness, 'inputs' | 'outputs'>;

/** A VALID_SPEND v2 proof with its public inputs and the change note the witness derived. */
export type SpendV2ProofResult = ProofResult & {
  change: { amount: bigint; inner: bigint; commitment: bigint };
};

/** What makes proofs: `NoteProver` from `@nightjar/circuits`, or a test double. */
export interface Prover {
  /**
   * VALID_INPUT v2 for one order: the note, its path and the order's terms (`order`, DESIGN 3's
   * digest fields). Public inputs [use_tag, merkle_root, nullifier]; the proof backs that order
   * only (the venue refuses it for any other with 1011).
   */
  proveValidInputV2(req: ValidInputV2Params): Promise<{ proof: Uint8Array; publicInputs: bigint[] }>;
  /**
   * VALID_SPEND v2 for one withdrawal: pay `amount` of a note to `recipient`, the rest to a change
   * note of its owner (`change.commitment` 0 when nothing is left).
   */
  proveValidSpendV2(req: ValidSpendV2Params): Promise<SpendV2ProofResult>;
  /** Splits and merges; throws (ProverInputError) before proving a request the circuit would reject. */
  proveValidJoinSplit(req: ValidJoinSplitParams): Promise<JoinSplitProofResult>;
  close(): Promise<void>;
}

/** Options of `createClient`. */
export interface CreateClientParameters {
  /** The engine's origin, `https://host:port`. */
  baseUrl: string;
  /** The pinned platform root CA: DER bytes or PEM text. */
  pinnedRoot: Uint8Array | string;
  /** The pinned release compose hash (64 hex). */
  composeHash: string;
  /**
   * Pinned platform measurements (48-byte hex each, any subset of MRTD and RTMR0–2): on a real CVM,
   * the values of the CVM image you audited. A mismatch fails with `MeasurementMismatchError`.
   */
  pinnedMeasurements?: PinnedMeasurements;
  /**
   * The client's own DCAP collateral source, used in preference to the venue's: a PCCS URL (or
   * Intel's PCS), or a fetcher function (which wins over `pccsUrl`). A real CVM serves none.
   */
  pccsUrl?: string;
  fetchCollateral?: CollateralFetcher;
  /** The ledger's JSON-RPC URL (or pass `ledger`). */
  ledgerUrl?: string;
  /**
   * A dev ledger's secret (ready.json `ledger_dev_secret`), sent with the faucet (`requestFaucet`)
   * to `ledgerUrl`; a dev ledger refuses the faucet without it.
   */
  ledgerDevSecret?: string;
  /**
   * How an `https://` `ledgerUrl` is trusted: the SHA-256 of its certificate's SubjectPublicKeyInfo
   * (ready.json `ledger_tls_spki_sha256`) and/or a CA certificate (PEM) it must chain to. A
   * certificate that fails fails the call before any request is sent (`LedgerUnavailableError`).
   */
  ledgerTls?: LedgerClientTls;
  /** A ledger client (in-process in tests); wins over `ledgerUrl`. */
  ledger?: LedgerClient;
  credentials: Credentials;
  /** The wallet that owns the notes and keys; needed by every trading and wallet action. */
  wallet?: Wallet;
  /** Directory for durable state (nonces). Without it nonces start from the clock (see NonceStore). */
  stateDir?: string;
  /** Nonce store (wins over `stateDir`). */
  nonces?: NonceStore;
  /** Prover; default a `NoteProver` with one single-threaded worker per core, started on first use. */
  prover?: Prover;
  /** Chain slot duration in ms, for wall-clock expiries (default 400). */
  slotMs?: number;
  /** Retry policy for 429, 1402, 5001 and network errors. */
  backoff?: BackoffOptions;
  /** Refresh the token this many ms before it expires (default 60,000). */
  refreshLeadMs?: number;
  /** Called after each socket passes verification. */
  onVerified?: (report: VerifyTransportReturnType) => void;
  /** Called before each retry of a retryable failure (for logging and metrics). */
  onRetry?: (info: RetryInfo) => void;
  /**
   * A random hold before a newly deposited note may back an order (default off): each deposit
   * note waits a uniform, crypto-random `0..maxMs` after it is final, so a deposit's finality does
   * not name the order it backs (see notes/fresh-note-hold.ts).
   */
  freshNoteHold?: FreshNoteHoldOptions;
}

/** What `onRetry` is told. */
export interface RetryInfo {
  /** 0 for the first retry. */
  attempt: number;
  delayMs: number;
  error: NightjarError;
}

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
   * that does not match throws `InvalidResponseError`. Without it the body is returned as parsed.
   */
  codec?: Codec<T>;
}

/** A verified, logged-in venue client; pass it to every action. */
export interface Client {
  readonly baseUrl: string;
  readonly transport: Transport;
  /**
   * The ledger (the one passed to `createClient`, or a client of `ledgerUrl`), its calls' failures
   * typed: `LedgerUnavailableError` (unreachable, timed out) or `LedgerError` (a JSON-RPC error).
   */
  readonly ledger: LedgerClient;
  readonly nonces: NonceStore;
  readonly slotMs: number;
  /** The fresh-note hold (`freshNoteHold`), when one was asked for. */
  readonly noteHold?: FreshNoteHold;
  /** The wallet (throws when the client was created without one). */
  readonly wallet: Wallet;
  readonly hasWallet: boolean;
  /** The account the token belongs to. */
  readonly accountId: string;
  /** The prover (created on first use). */
  prover(): Prover;
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
  /** Closes sockets, the prover (if the client made it) and the ledger client (if it made it). */
  close(): Promise<void>;
}

/** The client `createClient` resolves with. */
export type CreateClientReturnType = Client;

/**
 * The pinned root as DER. A string must be the PEM text: a path (such as ready.json's
 * `platform_root`, a DER file) is refused with the fix instead of OpenSSL's parse error.
 */
function rootDer(root: Uint8Array | string): Uint8Array {
  if (typeof root !== 'string') return root;
  if (!root.includes('-----BEGIN CERTIFICATE-----'))
    throw new ParameterError(
      'pinnedRoot takes the root certificate itself (PEM text, or DER bytes), not a path: ' +
        'pass readFileSync(path), e.g. readFileSync(ready.platform_root) for a local venue',
    );
  try {
    return new Uint8Array(new X509Certificate(root).raw);
  } catch (cause) {
    throw new ParameterError('pinnedRoot is not a valid PEM certificate', { cause });
  }
}

/** The venue's answer to `path`, parsed with the protocol's codec for it. */
function parseResponse<T>(codec: Codec<T>, body: unknown, path: string): T {
  try {
    return codec.parse(body);
  } catch (err) {
    if (!(err instanceof FieldError)) throw err;
    // The path without its query (which may name a note); FieldError messages never echo values.
    const route = path.split('?')[0];
    throw new InvalidResponseError(`the answer to ${route} does not match the spec: ${err.message}`, {
      cause: err,
    });
  }
}

/** The client's own collateral source, if it has one: the fetcher, else its PCCS. */
function collateralSource(params: CreateClientParameters): { fetchCollateral?: CollateralFetcher } {
  if (params.fetchCollateral) return { fetchCollateral: params.fetchCollateral };
  if (params.pccsUrl) return { fetchCollateral: pccsCollateralFetcher(params.pccsUrl) };
  return {};
}

/**
 * Verifies the venue's transport, logs in and returns the client.
 *
 * @example
 * const client = await createClient({ baseUrl, pinnedRoot, composeHash, ledgerUrl, credentials, wallet });
 */
export async function createClient(params: CreateClientParameters): Promise<CreateClientReturnType> {
  // Checked before anything is opened: a bad root leaves nothing to close.
  const rootCaDer = rootDer(params.pinnedRoot);
  const ownsLedger = !params.ledger;
  // Every failure of a ledger call (this one or the caller's) is a typed SDK error.
  const ledger: LedgerClient = typedLedger(
    params.ledger ??
      (params.ledgerUrl
        ? new RpcLedgerClient(params.ledgerUrl, {
            ...(params.ledgerDevSecret === undefined ? {} : { devSecret: params.ledgerDevSecret }),
            ...(params.ledgerTls === undefined ? {} : { tls: params.ledgerTls }),
          })
        : (() => {
            throw new NightjarError('createClient needs ledgerUrl or ledger');
          })()),
  );
  const transport = createTransport({
    url: params.baseUrl,
    rootCaDer,
    composeHash: params.composeHash,
    ledger,
    ...(params.pinnedMeasurements ? { measurements: params.pinnedMeasurements } : {}),
    ...collateralSource(params),
    ...(params.onVerified ? { onVerified: params.onVerified } : {}),
  });
  const backoff = { ...DEFAULT_BACKOFF, ...params.backoff };
  const refreshLeadMs = params.refreshLeadMs ?? 60_000;
  const nonces =
    params.nonces ??
    (params.stateDir ? fileNonceStore(join(params.stateDir, 'nonces.json')) : memoryNonceStore());
  let prover = params.prover;
  const ownsProver = !prover;
  let token: { value: string; expiresAt: number; lifetimeMs: number } | undefined;
  let pendingToken: Promise<string> | undefined;
  let suspended: AccountSuspendedError | undefined;
  let accountId = '';
  const instruments = new Map<string, Instrument>();

  /** One HTTP exchange on the verified transport, errors typed. */
  const send = async (path: string, method: string, body: unknown, bearer?: string): Promise<unknown> => {
    let res;
    try {
      res = await transport.request<unknown>(path, {
        method,
        ...(body === undefined ? {} : { body }),
        ...(bearer ? { token: bearer } : {}),
      });
    } catch (err) {
      if (err instanceof TransportError && err.code !== 'TRANSPORT_CLOSED') throw err;
      // Verification reads the signer set from the ledger: its failure is the ledger's.
      if (err instanceof LedgerError) throw err;
      throw new NetworkError(`request to ${path} failed: ${(err as Error).message}`, { cause: err });
    }
    if (res.status >= 200 && res.status < 300) return res.body;
    const envelope = (res.body ?? {}) as { code?: unknown; message?: unknown };
    const retryAfter = res.headers['retry-after'];
    const options = {
      ...(retryAfter !== undefined && !Number.isNaN(Number(retryAfter))
        ? { retryAfterSeconds: Number(retryAfter) }
        : {}),
      ...(typeof res.headers['x-request-id'] === 'string' ? { requestId: res.headers['x-request-id'] } : {}),
    };
    const code = envelope.code === undefined ? 0 : Number(envelope.code);
    const message = typeof envelope.message === 'string' ? envelope.message : `HTTP ${res.status}`;
    throw venueError(code, res.status, message, options);
  };

  /** Retries retryable failures with jittered backoff. */
  const withRetry = async <T>(fn: () => Promise<T>, retry: boolean): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        const retryable = err instanceof NightjarError && err.retryable;
        if (!retry || !retryable || attempt + 1 >= backoff.attempts) throw err;
        const after = err instanceof VenueRequestError ? err.retryAfterSeconds : undefined;
        const delayMs = backoffDelay(attempt, backoff, after);
        params.onRetry?.({ attempt, delayMs, error: err });
        await sleep(delayMs);
      }
    }
  };

  const login = async (): Promise<string> => {
    const body = await withRetry(
      () =>
        send('/auth/token', 'POST', {
          api_key: params.credentials.api_key,
          api_secret: params.credentials.api_secret,
          passphrase: params.credentials.passphrase,
        }),
      true,
    ).catch((err: unknown) => {
      if (err instanceof AccountSuspendedError) suspended = err;
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
  const accessToken = async (): Promise<string> => {
    if (suspended) throw suspended;
    if (token && Date.now() < token.expiresAt - leadOf(token)) return token.value;
    return refreshToken();
  };

  const client: Client = {
    baseUrl: params.baseUrl,
    transport,
    ledger,
    nonces,
    slotMs: params.slotMs ?? 400,
    ...(params.freshNoteHold ? { noteHold: new FreshNoteHold(params.freshNoteHold) } : {}),
    get wallet(): Wallet {
      if (!params.wallet)
        throw new NightjarError('this client has no wallet (pass `wallet` to createClient)');
      return params.wallet;
    },
    get hasWallet() {
      return params.wallet !== undefined;
    },
    get accountId() {
      return accountId;
    },
    prover() {
      prover ??= new NoteProver({ workers: Math.max(1, availableParallelism()), singleThread: true });
      return prover;
    },
    accessToken,
    refreshToken,
    tokenExpiry: () => (token ? { expiresAt: token.expiresAt, lifetimeMs: token.lifetimeMs } : undefined),
    refreshLeadMs,
    async bootSessionId() {
      return (await transport.verify()).bootSessionId;
    },
    async request<T>(path: string, options: ClientRequestOptions<T> = {}): Promise<T> {
      const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
      const auth = options.auth ?? true;
      const once = async () => {
        if (!auth) return send(path, method, options.body);
        const bearer = await accessToken();
        try {
          return await send(path, method, options.body, bearer);
        } catch (err) {
          if (err instanceof AccountSuspendedError) {
            suspended = err;
            throw err;
          }
          // Any 401: a fresh token and one more try.
          if (err instanceof VenueRequestError && err.status === 401) {
            if (token?.value === bearer) token = undefined;
            return send(path, method, options.body, await accessToken());
          }
          throw err;
        }
      };
      const body = await withRetry(once, options.retry ?? true);
      return options.codec ? parseResponse(options.codec, body, path) : (body as T);
    },
    async instrument(symbol: string) {
      const cached = instruments.get(symbol);
      if (cached) return cached;
      const inst = await client.request(`/instruments/${encodeURIComponent(symbol)}`, {
        auth: false,
        codec: instrumentCodec,
      });
      instruments.set(symbol, inst);
      return inst;
    },
    async close() {
      transport.close();
      if (ownsProver && prover) await prover.close();
      if (ownsLedger) await ledger.close();
    },
  };

  // Verify first (nothing is sent on an unverified socket), then log in.
  try {
    await transport.verify();
    await accessToken();
  } catch (err) {
    await client.close();
    throw err;
  }
  return client;
}
