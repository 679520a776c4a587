/**
 * `createAppServer`: the trading app's server (DESIGN 10). One process holds the wallet and runs
 * the SDK; it serves the web app and the local JSON + WebSocket API under `/api/v1` on 127.0.0.1
 * only, behind the front door of `security.ts`. The printed URL carries a one-time token that
 * becomes the browser's session; bots use the API token in `<data-dir>/app/api-token`.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createWallet, type Credentials, type Prover, type ScryptParams, type Wallet } from '@nightjar/sdk';
import { appHandlers } from './http/handlers.js';
import { openApiDocument } from './api/openapi.js';
import { registerAppRoutes } from './http/register.js';
import { API_PREFIX } from './api/route-descriptor.js';
import { APP_ROUTES } from './api/routes.js';
import type { VenueView } from './api-types.js';
import { EventSockets } from './events-socket.js';
import { createFastify, installFrontDoor } from './front-door.js';
import { Operators } from './operator.js';
import { DEFAULT_SESSION_POLICY, Sessions, type SessionPolicy } from './security.js';
import { AppState, readReadyFile } from './state.js';
import { Trader } from './trading/trader.js';
import { VenueSession, type VenueConfig } from './venue.js';
import { registerWebApp } from './web/index.js';

type ConnectionState = 'connected' | 'disconnected' | 'reconnected';

/** The app's default port. */
export const DEFAULT_APP_PORT = 8480;

export interface CreateAppServerOptions {
  /** The venue's data directory: its ready.json, and the app's state in `<dataDir>/app`. */
  dataDir?: string;
  /** Where the venue's ready.json is (default `<dataDir>/ready.json`). */
  readyFile?: string;
  /** The venue, instead of ready.json (tests run one in process). */
  venue?: VenueConfig;
  /** The app's state directory (default `<dataDir>/app`). */
  stateDir?: string;
  /** Default 8480; 0 picks a free port. */
  port?: number;
  /** Only 127.0.0.1: the app never listens on another address. */
  host?: '127.0.0.1';
  /** Fastify's logger (default off). Request URLs are logged without their query (the token). */
  logger?: FastifyServerOptions['logger'];
  /**
   * The trading account (default `<state>/credentials.json`; on a dev venue without it, an `app`
   * account the app makes with the dev admin at its first connection and saves there).
   */
  credentials?: Credentials;
  /** Test seams: the wallet's password and scrypt cost, a stand-in prover, the slot length. */
  walletPassword?: string;
  walletScrypt?: ScryptParams;
  prover?: Prover;
  slotMs?: number;
  /** Browser sessions' idle timeout, lifetime and number (defaults: 30 min, 12 h, 64). */
  sessionPolicy?: Partial<SessionPolicy>;
  /** Test seam: the clock sessions expire by (default Date.now). */
  now?: () => number;
  /**
   * A random hold, up to this many ms, before a newly deposited note may back an order (the SDK's
   * `freshNoteHold`; default off): a deposit's finality then does not time the order it backs.
   */
  freshNoteHoldMs?: number;
}

export interface AppServer {
  /** `http://127.0.0.1:P/?token=T`: opens a browser session, once. */
  url: string;
  /** `http://127.0.0.1:P` */
  origin: string;
  port: number;
  /** The bot API token (`Authorization: Bearer`), also in `apiTokenFile`. */
  apiToken: string;
  apiTokenFile: string;
  stateDir: string;
  /** Another one-time login URL. */
  loginUrl(): string;
  venue(): VenueView;
  /** Every route served, `METHOD /path` (fastify's `:param` form), the WebSocket's GET included. */
  routes(): string[];
  wallet: Wallet;
  fastify: FastifyInstance;
  close(): Promise<void>;
}

/** The venue as ready.json names it: the ledger over TLS with its pin when ready.json has them. */
export function venueFromReady(dataDir: string, readyFile?: string): VenueConfig {
  const ready = readReadyFile(dataDir, readyFile);
  if (!ready.platform_root)
    throw new Error('ready.json names no platform root: the app needs the pinned root to verify the venue');
  return {
    baseUrl: ready.base_url,
    // Over TLS with the pinned certificate when the venue serves it so; else the plain URL.
    ...(ready.ledger_tls_url && ready.ledger_tls_spki_sha256
      ? { ledgerUrl: ready.ledger_tls_url, ledgerTls: { spkiSha256: ready.ledger_tls_spki_sha256 } }
      : { ledgerUrl: ready.ledger_url }),
    ...(ready.ledger_dev_secret ? { ledgerDevSecret: ready.ledger_dev_secret } : {}),
    composeHash: ready.compose_hash,
    pinnedRoot: new Uint8Array(readFileSync(ready.platform_root)),
    ...(ready.admin ? { admin: ready.admin } : {}),
    dev: ready.admin !== undefined,
  };
}

export async function createAppServer(options: CreateAppServerOptions = {}): Promise<AppServer> {
  if (options.host !== undefined && options.host !== '127.0.0.1')
    throw new Error('the app listens on 127.0.0.1 only');
  const dataDir = resolve(options.dataDir ?? '.nightjar');
  const config = options.venue ?? venueFromReady(dataDir, options.readyFile);
  const state = new AppState(options.stateDir ?? join(dataDir, 'app'));
  const apiToken = state.apiToken();
  const wallet = openWallet(state, options);
  const sockets = new EventSockets();
  const late: { operators?: Operators } = {};
  const sessionPolicy = { ...DEFAULT_SESSION_POLICY, ...options.sessionPolicy };
  // A session that ends (logout, idle, age, a newer login) takes its operator login and sockets along.
  const sessions = new Sessions(apiToken, undefined, sessionPolicy, options.now, (ended) => {
    void late.operators?.logout(ended.id).catch(() => undefined);
    sockets.endSession(ended.id);
  });
  const sweeper = setInterval(() => sessions.sweep(), Math.min(60_000, sessionPolicy.idleMs / 2));
  sweeper.unref();
  const { venue, trader: t, connection } = openVenue(config, wallet, state, options, sockets);
  const operators = new Operators(venue, state, async () => t.markets.assets(venue.require()));
  late.operators = operators;

  const { app, routes } = createFastify(options.logger, (err) => venue.noteFailure(err));
  let port = 0;
  const loginUrl = () => `http://127.0.0.1:${port}/?token=${sessions.newLoginToken()}`;
  installFrontDoor(app, sessions, () => port);
  const handlers = appHandlers({
    venue,
    trader: t,
    operators,
    sessions,
    loginUrl,
    sessionMoved: (from, to) => sockets.moveSession(from, to),
    document: openApiDocument,
  });
  registerAppRoutes(app, handlers, { operator: (session) => operators.authorize(session.id) });
  // The one call site of the web app (packages/app/src/web/index.ts): `GET /`, `/app.js`, `/app.css`.
  // Not awaited: the bundle builds in the background and its routes wait for it.
  void registerWebApp(app);
  sockets.attach(
    app.server,
    sessions,
    () => port,
    () => [
      { type: 'venue', venue: venue.venueView() },
      { type: 'connection', state: connection() },
    ],
  );

  await app.listen({ host: '127.0.0.1', port: options.port ?? DEFAULT_APP_PORT });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  // The first check of the venue, so the page opens on a verified (or failed) attestation.
  await venue.connect();

  return {
    url: loginUrl(),
    origin: `http://127.0.0.1:${port}`,
    port,
    apiToken,
    apiTokenFile: state.apiTokenFile,
    stateDir: state.dir,
    loginUrl,
    venue: () => venue.venueView(),
    routes: () => [`GET ${API_PREFIX}${APP_ROUTES.events.path}`, ...routes],
    wallet,
    fastify: app,
    async close() {
      clearInterval(sweeper);
      sockets.close();
      t.close();
      await operators.close();
      await venue.close();
      await app.close();
    },
  };
}

/** The app's wallet, under its state directory. */
function openWallet(state: AppState, options: CreateAppServerOptions): Wallet {
  return createWallet({
    path: state.walletFile,
    password: options.walletPassword ?? state.walletPassword(),
    ...(options.walletScrypt ? { scrypt: options.walletScrypt } : {}),
  });
}

/**
 * The venue session and the trader, their news broadcast on the events sockets. The trader is made
 * after the venue session, which tells it the stream and each new client.
 */
function openVenue(
  config: VenueConfig,
  wallet: Wallet,
  state: AppState,
  options: CreateAppServerOptions,
  sockets: EventSockets,
): { venue: VenueSession; trader: Trader; connection: () => ConnectionState } {
  let connection: ConnectionState = 'disconnected';
  const late: { trader?: Trader } = {};
  const venue = new VenueSession(
    config,
    wallet,
    options.credentials ?? state.credentials(),
    state.sdkStateDir,
    {
      ...(options.prover ? { prover: options.prover } : {}),
      ...(options.slotMs ? { slotMs: options.slotMs } : {}),
      ...(options.freshNoteHoldMs ? { freshNoteHold: { maxMs: options.freshNoteHoldMs } } : {}),
      // A dev venue: the app's own account, made once with the dev admin (never trading as it).
      ...(options.credentials ? {} : { saveCredentials: (c: Credentials) => state.saveCredentials(c) }),
    },
    {
      venue: (view) => sockets.broadcast({ type: 'venue', venue: view }),
      connection: (s) => {
        connection = s;
        sockets.broadcast({ type: 'connection', state: s });
      },
      stream: (e) => late.trader?.onStream(e),
      connected: (client) => late.trader?.attach(client),
    },
  );
  const trader = new Trader(venue, wallet, state, (e) => sockets.broadcast(e));
  late.trader = trader;
  return { venue, trader, connection: () => connection };
}
