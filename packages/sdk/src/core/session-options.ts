/** The options of a venue session (`createClient`'s own, minus the wallet and the prover), and how each is read. */
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { RpcLedgerClient, type LedgerClient, type LedgerClientTls } from '@nightjar/protocol/ledger-client';
import { fileNonceStore, memoryNonceStore, type NonceStore } from './nonce-store.js';
import {
  pccsCollateralFetcher,
  type CollateralFetcher,
  type PinnedMeasurements,
  type VerifyTransportReturnType,
} from './transport/index.js';
import type { BackoffOptions } from './utils/backoff.js';
import { typedLedger } from './utils/typed-ledger.js';
import { NIGHTJAR_ERROR__CLIENT_CONFIG, NIGHTJAR_ERROR__PARAMETER, NightjarError } from './errors/index.js';

/** Account credentials, provisioned out of band. */
export interface Credentials {
  api_key: string;
  api_secret: string;
  passphrase: string;
}

/** What `onRetry` is told. */
export interface RetryInfo {
  /** 0 for the first retry. */
  attempt: number;
  delayMs: number;
  error: NightjarError;
}

/** The options of a venue session: the transport's trust, the ledger, credentials, retries. */
export interface VenueSessionParameters {
  /** The engine's origin, `https://host:port`. */
  baseUrl: string;
  /** The pinned platform root CA: DER bytes or PEM text. */
  pinnedRoot: Uint8Array | string;
  /** The pinned release compose hash (64 hex). */
  composeHash: string;
  /**
   * Pinned platform measurements (48-byte hex each, any subset of MRTD and RTMR0–2): on a real CVM,
   * the values of the CVM image you audited. A mismatch fails with `ATTESTATION_MEASUREMENT`.
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
   * certificate that fails fails the call before any request is sent (`LEDGER_UNAVAILABLE`).
   */
  ledgerTls?: LedgerClientTls;
  /** A ledger client (in-process in tests); wins over `ledgerUrl`. */
  ledger?: LedgerClient;
  credentials: Credentials;
  /** Directory for durable state (nonces). Without it nonces start from the clock (see NonceStore). */
  stateDir?: string;
  /** Nonce store (wins over `stateDir`). */
  nonces?: NonceStore;
  /** Chain slot duration in ms, for wall-clock expiries (default 400). */
  slotMs?: number;
  /** Retry policy for 429, 1402, 5001 and network errors. */
  backoff?: BackoffOptions;
  /** Refresh the token this many ms before it expires (default 60,000). */
  refreshLeadMs?: number;
  /** Called after each socket to this engine (`baseUrl`) passes verification. */
  onVerified?: (report: VerifyTransportReturnType) => void;
  /**
   * Called after each socket to another engine of the venue (one serving markets listed with
   * their own `base_url`) passes verification, with that engine's base URL.
   */
  onEngineVerified?: (baseUrl: string, report: VerifyTransportReturnType) => void;
  /** Called before each retry of a retryable failure (for logging and metrics). */
  onRetry?: (info: RetryInfo) => void;
}

/**
 * The pinned root as DER. A string must be the PEM text: a path (such as ready.json's
 * `platform_root`, a DER file) is refused with the fix instead of OpenSSL's parse error.
 */
export function rootDer(root: Uint8Array | string): Uint8Array {
  if (typeof root !== 'string') return root;
  if (!root.includes('-----BEGIN CERTIFICATE-----'))
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail:
        'pinnedRoot takes the root certificate itself (PEM text, or DER bytes), not a path: ' +
        'pass readFileSync(path), e.g. readFileSync(ready.platform_root) for a local venue',
    });
  try {
    return new Uint8Array(new X509Certificate(root).raw);
  } catch (cause) {
    throw new NightjarError(
      NIGHTJAR_ERROR__PARAMETER,
      { detail: 'pinnedRoot is not a valid PEM certificate' },
      { cause },
    );
  }
}

/** The client's own collateral source, if it has one: the fetcher, else its PCCS. */
export function collateralSource(params: VenueSessionParameters): { fetchCollateral?: CollateralFetcher } {
  if (params.fetchCollateral) return { fetchCollateral: params.fetchCollateral };
  if (params.pccsUrl) return { fetchCollateral: pccsCollateralFetcher(params.pccsUrl) };
  return {};
}

/** The session's ledger (the one passed, or a client of `ledgerUrl`), every call's failure typed. */
export function sessionLedger(params: VenueSessionParameters): LedgerClient {
  if (params.ledger) return typedLedger(params.ledger);
  if (!params.ledgerUrl)
    throw new NightjarError(NIGHTJAR_ERROR__CLIENT_CONFIG, {
      detail: 'createClient needs ledgerUrl or ledger',
    });
  return typedLedger(
    new RpcLedgerClient(params.ledgerUrl, {
      ...(params.ledgerDevSecret === undefined ? {} : { devSecret: params.ledgerDevSecret }),
      ...(params.ledgerTls === undefined ? {} : { tls: params.ledgerTls }),
    }),
  );
}

/** The nonce store: the one passed, a file under `stateDir`, or memory. */
export function sessionNonces(params: VenueSessionParameters): NonceStore {
  if (params.nonces) return params.nonces;
  return params.stateDir ? fileNonceStore(join(params.stateDir, 'nonces.json')) : memoryNonceStore();
}
