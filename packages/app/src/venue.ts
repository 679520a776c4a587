/**
 * The app's one connection to the venue: an SDK client (transport attestation (a)–(d) on every
 * socket before anything is sent, then login) holding the app's wallet, and its stream. It keeps
 * the attestation's last result for GET /api/v1/venue, re-checked on every new socket (a
 * reconnect, an engine restart and so a boot change) and on demand (POST /api/v1/venue/verify).
 * Once a check fails the client and the stream are closed and nothing more is sent to the venue
 * until a check passes again: trading routes answer 503 ATTESTATION_FAILED.
 */
import {
  engineOfError,
  createAccount,
  createClient,
  createStream,
  type Client,
  type CreateClientParameters,
  type Credentials,
  type FreshNoteHoldOptions,
  type Prover,
  type StreamClient,
  type StreamClientEvent,
  nightjarErrorName,
  TRANSPORT_CHECK,
  type NightjarError,
  type TransportErrorCode,
  type VerifyTransportReturnType,
  type Wallet,
} from '@nightjar/sdk';
import type { AttestationCheck, VenueView } from './api-types.js';

/** Another engine of the venue, as the venue view lists it. */
type EngineView = NonNullable<VenueView['engines']>[number];
import { AppError, isAttestationFailure } from './errors.js';

/** Where the venue is and what to pin (ready.json's fields, or in-process values in tests). */
export interface VenueConfig {
  baseUrl: string;
  ledgerUrl?: string;
  /** How an `https://` `ledgerUrl` is trusted (its pin: ready.json `ledger_tls_spki_sha256`). */
  ledgerTls?: CreateClientParameters['ledgerTls'];
  /** A dev ledger's secret (ready.json `ledger_dev_secret`): the faucet needs it. */
  ledgerDevSecret?: string;
  /** A ledger client (in-process in tests); wins over `ledgerUrl`. */
  ledger?: CreateClientParameters['ledger'];
  composeHash: string;
  /** The pinned platform root: DER bytes or PEM text. */
  pinnedRoot: Uint8Array | string;
  /** A dev venue's admin (ready.json `admin`): the default trading account and the operator's dev login. */
  admin?: Credentials;
  /** A dev venue: the faucet works. Default: whether `admin` is given. */
  dev?: boolean;
}

/** Test seams: a stand-in prover, the slot length, a faster wallet. */
export interface ClientHooks {
  prover?: Prover;
  slotMs?: number;
  /** The SDK's fresh-note hold (`freshNoteHoldMs`): a new deposit waits a random time to back an order. */
  freshNoteHold?: FreshNoteHoldOptions;
  /**
   * Keeps the trading account the app made for itself on a dev venue (with the dev admin, once):
   * the app trades as its own account, never as the admin the other surfaces could share.
   */
  saveCredentials?: (credentials: Credentials) => void;
}

const TITLES: Record<AttestationCheck['id'], string> = {
  a: '(a) genuine platform: the quote verifies under the pinned root, TCB up to date, fresh nonce',
  b: '(b) this connection: the attested manifest binds the TLS key of this very socket',
  c: '(c) the release: the event log replays to RTMR3 and names the pinned compose hash',
  d: "(d) the engine's identity: boot session as /info says, signer set as finalized on the ledger",
};

/** The four checks as a verification report shows them. */
export function checksOf(report: VerifyTransportReturnType): AttestationCheck[] {
  const mrtd = report.measurements.mrtd;
  return [
    {
      id: 'a',
      title: TITLES.a,
      ok: true,
      detail: `TDX quote verified, TCB status ${report.tcbStatus}${mrtd ? `, MRTD ${mrtd.slice(0, 16)}…` : ''}`,
    },
    { id: 'b', title: TITLES.b, ok: true, detail: `TLS key SPKI SHA-256 ${report.tlsSpkiSha256}` },
    { id: 'c', title: TITLES.c, ok: true, detail: `compose hash ${report.composeHash} (the pinned release)` },
    {
      id: 'd',
      title: TITLES.d,
      ok: true,
      detail: `boot session ${report.bootSessionId}; signer set SHA-256 ${report.signerSetSha256} (${report.teeKeys.length} key${report.teeKeys.length === 1 ? '' : 's'})`,
    },
  ];
}

/** The checks after a failure: those before the failed one passed, those after were not run. */
export function checksOfFailure(err: NightjarError<TransportErrorCode>): AttestationCheck[] {
  const order = ['a', 'b', 'c', 'd'] as const;
  const check = TRANSPORT_CHECK[err.code];
  const code = nightjarErrorName(err.code);
  const failedAt = check === undefined ? -1 : order.indexOf(check);
  return order.map((id, i) => {
    if (failedAt < 0)
      return { id, title: TITLES[id], ok: false, detail: `not verified: ${code}: ${err.message}` };
    if (i < failedAt) return { id, title: TITLES[id], ok: true, detail: 'passed' };
    if (i === failedAt)
      return { id, title: TITLES[id], ok: false, detail: `FAILED (${code}): ${err.message}` };
    return { id, title: TITLES[id], ok: false, detail: 'not run (an earlier check failed)' };
  });
}

export type VenueListener = {
  venue(view: VenueView): void;
  connection(state: 'connected' | 'disconnected' | 'reconnected'): void;
  stream(e: StreamClientEvent): void;
  connected(client: Client): void;
};

export class VenueSession {
  private client: Client | undefined;
  private stream: StreamClient | undefined;
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private view: VenueView;
  private lastBoot: string | undefined;
  /** Set after a failed attestation: nothing is sent until a check passes. */
  private failed = false;

  constructor(
    private readonly config: VenueConfig,
    private readonly wallet: Wallet,
    private credentials: Credentials | undefined,
    private readonly stateDir: string,
    private readonly hooks: ClientHooks,
    private readonly on: VenueListener,
  ) {
    this.view = {
      base_url: config.baseUrl,
      attestation: 'checking',
      checks: [],
      dev: this.dev,
      ...(config.composeHash ? { compose_hash: config.composeHash } : {}),
    };
  }

  get dev(): boolean {
    return this.config.dev ?? this.config.admin !== undefined;
  }

  get admin(): Credentials | undefined {
    return this.config.admin;
  }

  venueView(): VenueView {
    return { ...this.view, checks: this.view.checks.map((c) => ({ ...c })) };
  }

  /** The connected client; 503 when the attestation failed or the venue is not reachable yet. */
  require(): Client {
    if (this.failed)
      throw new AppError(
        503,
        'ATTESTATION_FAILED',
        `the venue's attestation failed: nothing is sent to it (${this.view.error?.message ?? 'see GET /api/v1/venue'})`,
        'see GET /api/v1/venue for the failed check; POST /api/v1/venue/verify checks again',
        this.view.error?.venue_code,
      );
    if (!this.client) {
      void this.connect();
      throw new AppError(
        503,
        'VENUE_UNAVAILABLE',
        `not connected to the venue yet${this.view.error ? `: ${this.view.error.message}` : ''}`,
        'is the venue running (`npm start`)? the app keeps trying; try again shortly',
      );
    }
    return this.client;
  }

  /** Options for another client of the same venue (the operator's), never before a passed check. */
  clientParameters(credentials: Credentials): CreateClientParameters {
    if (this.failed) this.require();
    return {
      baseUrl: this.config.baseUrl,
      pinnedRoot: this.config.pinnedRoot,
      composeHash: this.config.composeHash,
      ...(this.config.ledger ? { ledger: this.config.ledger } : {}),
      ...(this.config.ledgerUrl ? { ledgerUrl: this.config.ledgerUrl } : {}),
      ...(this.config.ledgerTls ? { ledgerTls: this.config.ledgerTls } : {}),
      ...(this.config.ledgerDevSecret ? { ledgerDevSecret: this.config.ledgerDevSecret } : {}),
      credentials,
      ...(this.hooks.slotMs ? { slotMs: this.hooks.slotMs } : {}),
      ...(this.hooks.freshNoteHold ? { freshNoteHold: this.hooks.freshNoteHold } : {}),
      backoff: { attempts: 3 },
      onVerified: (r) => this.verified(r),
      onEngineVerified: (url, r) =>
        this.engineChecked(url, {
          attestation: 'verified',
          boot_session_id: r.bootSessionId,
          compose_hash: r.composeHash,
        }),
    };
  }

  /** Connects (verifying, then logging in) unless connected; resolves when that attempt ends. */
  connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Drops the connection and checks the venue afresh on a new socket (then logs in again). */
  async reverify(): Promise<VenueView> {
    if (this.connecting) await this.connecting;
    await this.disconnect();
    this.failed = false;
    this.view = { ...this.view, attestation: 'checking' };
    this.on.venue(this.venueView());
    await this.connect();
    return this.venueView();
  }

  /** A route met a transport failure: stop sending anything (another engine's: only to it). */
  noteFailure(err: unknown): void {
    if (!isAttestationFailure(err)) return;
    const engine = engineOfError(err);
    if (engine === undefined) this.fail(err);
    else this.engineChecked(engine, { attestation: 'failed', error: err.message });
  }

  /** Another engine of the venue (markets on several) was checked: the view lists it. */
  private engineChecked(baseUrl: string, result: Omit<EngineView, 'base_url' | 'checked_at'>): void {
    const others = (this.view.engines ?? []).filter((e) => e.base_url !== baseUrl);
    this.view = {
      ...this.view,
      engines: [...others, { base_url: baseUrl, ...result, checked_at: Date.now() }],
    };
    this.on.venue(this.venueView());
  }

  /** A dev venue and no account yet: the app's own (`app`), made with the dev admin and kept. */
  private async ownDevAccount(): Promise<void> {
    const admin = this.config.admin;
    if (this.credentials || !admin || !this.hooks.saveCredentials) return;
    const adminClient = await createClient(this.clientParameters(admin));
    try {
      const created = await createAccount(adminClient, { label: 'app' });
      this.credentials = {
        api_key: created.api_key,
        api_secret: created.api_secret,
        passphrase: created.passphrase,
      };
      this.hooks.saveCredentials(this.credentials);
    } finally {
      await adminClient.close();
    }
  }

  private async open(): Promise<void> {
    if (this.failed) return;
    if (!this.credentials) {
      this.view = {
        ...this.view,
        error: {
          code: 'NO_CREDENTIALS',
          message: 'the app has no trading account',
          fix: "write the account's credentials to <data-dir>/app/credentials.json ({api_key, api_secret, passphrase}) and restart the app",
        },
      };
    }
    let client: Client;
    try {
      await this.ownDevAccount();
      client = await createClient({
        ...this.clientParameters(
          this.credentials ?? { api_key: 'none', api_secret: 'none', passphrase: 'none' },
        ),
        wallet: this.wallet,
        stateDir: this.stateDir,
        ...(this.hooks.prover ? { prover: this.hooks.prover } : {}),
      });
    } catch (err) {
      if (isAttestationFailure(err)) {
        this.fail(err);
        return;
      }
      // Unreachable, or refused credentials: shown, and retried a little later.
      const message = err instanceof Error ? err.message : String(err);
      this.view = {
        ...this.view,
        error: { code: 'VENUE_UNAVAILABLE', message, fix: 'is the venue running (`npm start`)?' },
      };
      this.on.venue(this.venueView());
      this.scheduleRetry();
      return;
    }
    if (this.closed || this.failed) {
      await client.close();
      return;
    }
    this.client = client;
    this.view = { ...this.view, account_id: client.accountId };
    delete this.view.error;
    this.on.connected(client);
    try {
      const stream = await createStream(client, { channels: ['orders', 'fills'] });
      this.stream = stream;
      for (const t of ['order', 'fill', 'resync', 'disconnected', 'reconnected', 'error'] as const)
        stream.on(t, (e: StreamClientEvent) => this.onStream(e));
    } catch (err) {
      if (isAttestationFailure(err)) this.fail(err);
    }
    this.on.connection('connected');
    this.on.venue(this.venueView());
  }

  private onStream(e: StreamClientEvent): void {
    if (e.type === 'disconnected') this.on.connection('disconnected');
    if (e.type === 'reconnected') this.on.connection('reconnected');
    // A refused or closed socket (the venue restarting) is retried by the stream, not a failure;
    // another engine's failed check stops only its markets.
    const other = e.engine !== undefined && e.engine !== this.client?.baseUrl;
    if (e.type === 'error' && isAttestationFailure(e.error))
      if (other) this.engineChecked(e.engine!, { attestation: 'failed', error: e.error.message });
      else this.fail(e.error);
    this.on.stream(e);
  }

  /** Every socket that passed (a)–(d): the view shows what it verified. */
  private verified(report: VerifyTransportReturnType): void {
    const bootChanged = this.lastBoot !== undefined && this.lastBoot !== report.bootSessionId;
    this.lastBoot = report.bootSessionId;
    this.failed = false;
    this.view = {
      ...this.view,
      attestation: 'verified',
      checks: checksOf(report),
      boot_session_id: report.bootSessionId,
      compose_hash: report.composeHash,
      tls_spki_sha256: report.tlsSpkiSha256,
      checked_at: Date.now(),
    };
    delete this.view.error;
    this.on.venue(this.venueView());
    if (bootChanged) this.on.connection('reconnected');
  }

  private fail(err: NightjarError<TransportErrorCode>): void {
    const check = TRANSPORT_CHECK[err.code];
    this.failed = true;
    this.view = {
      ...this.view,
      attestation: 'failed',
      checks: checksOfFailure(err),
      checked_at: Date.now(),
      error: {
        code: 'ATTESTATION_FAILED',
        message: `check ${check ? `(${check}) ` : ''}failed: ${err.message}`,
        fix: "the venue is not the attested release you pinned: nothing was sent to it. Check ready.json's platform_root and compose_hash; POST /api/v1/venue/verify checks again",
        venue_code: err.codeName,
      },
    };
    delete this.view.account_id;
    void this.disconnect();
    this.on.venue(this.venueView());
    this.on.connection('disconnected');
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, 2_000);
    this.retryTimer.unref();
  }

  private async disconnect(): Promise<void> {
    const { stream, client } = this;
    this.stream = undefined;
    this.client = undefined;
    await stream?.close().catch(() => undefined);
    await client?.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.connecting) await this.connecting.catch(() => undefined);
    await this.disconnect();
  }
}
