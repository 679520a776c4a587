/**
 * `createAppServer`: the trading app's server (DESIGN 10). One process holds the wallet and runs
 * the SDK; it serves the web app and the local JSON + WebSocket API under `/api/v1` on 127.0.0.1
 * only, behind the front door of `security.ts`. The printed URL carries a one-time token that
 * becomes the browser's session; bots use the API token in `<data-dir>/app/api-token`.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { createWallet, type Credentials, type Prover, type ScryptParams, type Wallet } from '@nightjar/sdk';
import type { AppEvent, VenueView } from './api-types.js';
import { AppError, toAppError } from './errors.js';
import { toJson } from './json.js';
import { openApiDocument } from './openapi.js';
import { Operators, parseOperatorLogin } from './operator.js';
import {
  checkHostAndOrigin,
  cookieValue,
  DEFAULT_SESSION_POLICY,
  SESSION_COOKIE,
  Sessions,
  type Session,
  type SessionPolicy,
} from './security.js';
import { AppState, readReadyFile } from './state.js';
import { parseModify, parseOrderRequest, parseTransfer, parseWithdrawal, Trader } from './trading.js';
import { VenueSession, type VenueConfig } from './venue.js';
import { registerWebApp } from './web/index.js';

/**
 * The most a client may leave unread on the events socket. A client that stops reading (a stuck
 * bot) is closed instead of growing the app's memory; it reconnects and re-reads the state.
 */
export const EVENTS_BACKLOG_LIMIT = 1 << 20;

/** Sends one frame, or closes a socket whose unread backlog is over the limit (1008). */
export function sendBounded(
  ws: Pick<WebSocket, 'readyState' | 'OPEN' | 'bufferedAmount' | 'send' | 'close'>,
  text: string,
): void {
  if (ws.readyState !== ws.OPEN) return;
  if (ws.bufferedAmount + text.length > EVENTS_BACKLOG_LIMIT)
    ws.close(1008, 'events backlog over 1 MiB: reconnect');
  else ws.send(text);
}

/** The app's default port. */
export const DEFAULT_APP_PORT = 8480;

/** Largest request body the API reads (the biggest request, an order ticket, is far smaller). */
export const BODY_LIMIT = 16 * 1024;

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
  /** The trading account (default `<state>/credentials.json`, else a dev venue's admin). */
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

declare module 'fastify' {
  interface FastifyRequest {
    appSession: Session | null;
  }
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

/** Request logs without the query string (the one-time token) or any header. */
const serializers = {
  req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.split('?')[0] }),
};

export async function createAppServer(options: CreateAppServerOptions = {}): Promise<AppServer> {
  if (options.host !== undefined && options.host !== '127.0.0.1')
    throw new Error('the app listens on 127.0.0.1 only');
  const dataDir = resolve(options.dataDir ?? '.nightjar');
  const config = options.venue ?? venueFromReady(dataDir, options.readyFile);
  const state = new AppState(options.stateDir ?? join(dataDir, 'app'));
  const apiToken = state.apiToken();
  const wallet = createWallet({
    path: state.walletFile,
    password: options.walletPassword ?? state.walletPassword(),
    ...(options.walletScrypt ? { scrypt: options.walletScrypt } : {}),
  });
  /** Each events socket and the browser session it was opened under (null for the bot's). */
  const sockets = new Map<WebSocket, string | null>();
  const late: { trader?: Trader; operators?: Operators } = {};
  const sessionPolicy = { ...DEFAULT_SESSION_POLICY, ...options.sessionPolicy };
  // A session that ends (logout, idle, age, a newer login) takes its operator login and sockets along.
  const sessions = new Sessions(apiToken, undefined, sessionPolicy, options.now, (ended) => {
    void late.operators?.logout(ended.id).catch(() => undefined);
    for (const [ws, id] of sockets) if (id === ended.id) ws.close(1008, 'session ended: log in again');
  });
  const sweeper = setInterval(() => sessions.sweep(), Math.min(60_000, sessionPolicy.idleMs / 2));
  sweeper.unref();
  let connection: 'connected' | 'disconnected' | 'reconnected' = 'disconnected';

  const broadcast = (e: AppEvent) => {
    const text = toJson(e);
    for (const ws of sockets.keys()) sendBounded(ws, text);
  };

  // The trader is made after the venue session, which tells it the stream and each new client.
  const venue = new VenueSession(
    config,
    wallet,
    options.credentials ?? state.credentials(config.admin),
    state.sdkStateDir,
    {
      ...(options.prover ? { prover: options.prover } : {}),
      ...(options.slotMs ? { slotMs: options.slotMs } : {}),
      ...(options.freshNoteHoldMs ? { freshNoteHold: { maxMs: options.freshNoteHoldMs } } : {}),
    },
    {
      venue: (view) => broadcast({ type: 'venue', venue: view }),
      connection: (s) => {
        connection = s;
        broadcast({ type: 'connection', state: s });
      },
      stream: (e) => late.trader?.onStream(e),
      connected: (client) => late.trader?.attach(client),
    },
  );
  const t = new Trader(venue, wallet, state, broadcast);
  late.trader = t;
  const operators = new Operators(venue, state, async () => t.assets(venue.require()));
  late.operators = operators;

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: options.logger ? { ...(options.logger === true ? {} : options.logger), serializers } : false,
    // The Host check below needs the header as sent.
    trustProxy: false,
  });
  // JSON only: a form post (text/plain, urlencoded) from another site is refused before any handler.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (a DELETE from a client that sets Content-Type on every request) is no body;
  // anything else goes through fastify's parser, which refuses __proto__ and constructor keys.
  const strictJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body.length === 0) done(null, undefined);
    else strictJson(req, body as string, done); // parseAs: 'string'
  });
  app.setReplySerializer((payload) => toJson(payload));
  app.decorateRequest('appSession', null);
  const routes: string[] = [`GET /api/v1/events`];
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) if (m !== 'HEAD') routes.push(`${m} ${r.url}`);
  });

  let port = 0;
  const loginUrl = () => `http://127.0.0.1:${port}/?token=${sessions.newLoginToken()}`;
  app.addHook('onRequest', async (req, reply) => {
    void reply.header('X-Content-Type-Options', 'nosniff');
    void reply.header('X-Frame-Options', 'DENY');
    void reply.header('Referrer-Policy', 'no-referrer');
    const refused = checkHostAndOrigin(req.headers, port);
    if (refused) throw new AppError(refused.status, refused.code, refused.message);
    const path = req.url.split('?')[0] ?? '';
    if (path === '/' && req.method === 'GET') return redeem(req, reply);
    if (path.startsWith('/api/')) {
      void reply.header('Cache-Control', 'no-store');
      req.appSession = sessions.authenticate(req.headers) ?? null;
      if (!req.appSession)
        throw new AppError(
          401,
          'UNAUTHORIZED',
          'no session: this API needs the session of the printed URL, or the bot token',
          'open the URL `nightjar app` printed (ready.json app_url), or send `Authorization: Bearer <the token in <data-dir>/app/api-token>`',
        );
    }
    return undefined;
  });

  /** GET /?token=T: spends the one-time token, sets the session cookie and drops the token from the URL. */
  const redeem = async (req: FastifyRequest, reply: FastifyReply) => {
    const token = (req.query as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string') return undefined;
    const session = sessions.redeem(token, cookieValue(req.headers.cookie, SESSION_COOKIE));
    if (!session)
      return reply
        .status(401)
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>Nightjar</title><p>This login link was already used or is not valid. ' +
            'Each link opens one session: run <code>nightjar app</code> again for a new one.</p>',
        );
    return reply.header('Set-Cookie', sessions.cookie(session)).redirect('/', 303);
  };

  app.setErrorHandler((err, _req, reply) => {
    const fe = err as { statusCode?: number; code?: string };
    let e: AppError;
    if (err instanceof AppError) e = err;
    else if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      e = new AppError(413, 'BODY_TOO_LARGE', `request bodies are limited to ${BODY_LIMIT} bytes`);
    else if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      e = new AppError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'the API takes JSON bodies',
        'send Content-Type: application/json',
      );
    else if (fe.statusCode !== undefined && fe.statusCode >= 400 && fe.statusCode < 500)
      e = new AppError(fe.statusCode, 'BAD_REQUEST', err instanceof Error ? err.message : String(err));
    else {
      venue.noteFailure(err);
      e = toAppError(err);
    }
    return reply.status(e.status).send(e.body());
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .status(404)
      .send(new AppError(404, 'NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`).body()),
  );

  const sid = (req: FastifyRequest) => req.appSession!.id;
  const P = '/api/v1';

  app.get(`${P}/openapi.json`, async () => openApiDocument());
  // A new one-time login URL (for `nightjar app --link`, which calls it with the bot token).
  app.post(`${P}/session/links`, async () => ({ url: loginUrl() }));
  // Ends this browser session: its cookie, its operator login and its events sockets.
  app.post(`${P}/session/logout`, async (req, reply) => {
    const session = req.appSession!;
    if (session.kind === 'bot')
      throw new AppError(
        400,
        'BAD_REQUEST',
        'the bot token is not a session and cannot log out',
        'to stop a bot token working, delete <data-dir>/app/api-token and restart the app (a new one is made)',
      );
    sessions.end(session.id);
    return reply.header('Set-Cookie', Sessions.clearedCookie()).send({ logged_in: false });
  });
  app.get(`${P}/venue`, async () => venue.venueView());
  app.post(`${P}/venue/verify`, async () => venue.reverify());
  app.get(`${P}/markets`, async () => t.marketViews());
  app.get(`${P}/balances`, async () => t.balances());
  app.post(`${P}/faucet`, async (req) => t.faucet(parseTransfer(req.body)));
  app.post(`${P}/deposits`, async (req) => {
    const b = parseTransfer(req.body);
    const ref = (req.body as Record<string, unknown>).client_ref;
    return t.deposit({ ...b, ...(typeof ref === 'string' ? { client_ref: ref } : {}) });
  });
  app.post(`${P}/withdrawals`, async (req) => t.withdraw(parseWithdrawal(req.body)));
  app.get(`${P}/orders`, async () => {
    venue.require();
    return t.orderViews();
  });
  app.post(`${P}/orders/preview`, async (req) => t.preview(parseOrderRequest(req.body)));
  app.post(`${P}/orders`, async (req, reply) => {
    const view = await t.place(parseOrderRequest(req.body));
    return reply.status(201).send(view);
  });
  app.get<{ Params: { order_id: string } }>(`${P}/orders/:order_id`, async (req) => {
    venue.require();
    const v = t.orderView(req.params.order_id);
    if (!v) throw new AppError(404, 'NOT_FOUND', `no order ${req.params.order_id} in this wallet`);
    return v;
  });
  app.delete<{ Params: { order_id: string } }>(`${P}/orders/:order_id`, async (req) =>
    t.cancel(req.params.order_id),
  );
  app.patch<{ Params: { order_id: string } }>(`${P}/orders/:order_id`, async (req) =>
    t.modify(req.params.order_id, parseModify(req.body)),
  );
  app.get(`${P}/fills`, async () => t.fillViews());

  app.post(`${P}/operator/login`, async (req, reply) => {
    const result = await operators.login(sid(req), parseOperatorLogin(req.body));
    // A change of privilege gets a new cookie: one seen before the login is worth nothing after it.
    const before = req.appSession!;
    const after = sessions.rotate(before);
    if (after !== before) {
      operators.moveSession(before.id, after.id);
      for (const [ws, id] of sockets) if (id === before.id) sockets.set(ws, after.id);
      void reply.header('Set-Cookie', sessions.cookie(after));
    }
    return result;
  });
  app.post(`${P}/operator/logout`, async (req) => {
    await operators.logout(sid(req));
    return { logged_in: false };
  });
  app.get(`${P}/operator/status`, async (req) => operators.status(sid(req)));
  app.get(`${P}/operator/transparency`, async (req) => operators.transparency(sid(req)));
  app.get(`${P}/operator/metrics`, async (req) => operators.metrics(sid(req)));
  app.get(`${P}/operator/drain`, async (req) => operators.drain(sid(req), 'status'));
  app.post(`${P}/operator/drain`, async (req) => operators.drain(sid(req), 'begin'));
  app.delete(`${P}/operator/drain`, async (req) => operators.drain(sid(req), 'cancel'));
  app.get(`${P}/operator/accounts`, async (req) => operators.accountList(sid(req)));
  app.post(`${P}/operator/accounts`, async (req, reply) =>
    reply.status(201).send(await operators.createAccount(sid(req), req.body ?? {})),
  );
  for (const action of ['disable', 'enable', 'revoke-tokens'] as const)
    app.post<{ Params: { api_key: string } }>(`${P}/operator/accounts/:api_key/${action}`, async (req) =>
      operators.accountAction(sid(req), req.params.api_key, action),
    );

  // ---- the web front end -----------------------------------------------------------------------
  // The one call site of the web app (packages/app/src/web/index.ts): `GET /`, `/app.js`, `/app.css`.
  // Not awaited: the bundle builds in the background and its routes wait for it.
  void registerWebApp(app);

  // ---- the WebSocket ---------------------------------------------------------------------------
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const refuse = (socket: Duplex, status: number, text: string) => {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== `${P}/events`) return refuse(socket, 404, 'Not Found');
    if (checkHostAndOrigin(req.headers, port)) return refuse(socket, 403, 'Forbidden');
    const session = sessions.authenticate(req.headers);
    if (!session) return refuse(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.set(ws, session.kind === 'browser' ? session.id : null);
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', () => sockets.delete(ws));
      // Incoming frames carry nothing the app acts on.
      ws.on('message', () => undefined);
      ws.send(toJson({ type: 'venue', venue: venue.venueView() } satisfies AppEvent));
      ws.send(toJson({ type: 'connection', state: connection } satisfies AppEvent));
    });
  });

  await app.listen({ host: '127.0.0.1', port: options.port ?? DEFAULT_APP_PORT });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  // The first check of the venue, so the page opens on a verified (or failed) attestation.
  await venue.connect();

  return {
    url: loginUrl(),
    origin,
    port,
    apiToken,
    apiTokenFile: state.apiTokenFile,
    stateDir: state.dir,
    loginUrl,
    venue: () => venue.venueView(),
    routes: () => [...routes],
    wallet,
    fastify: app,
    async close() {
      clearInterval(sweeper);
      for (const ws of sockets.keys()) ws.terminate();
      wss.close();
      t.close();
      await operators.close();
      await venue.close();
      await app.close();
    },
  };
}
