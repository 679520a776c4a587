/**
 * The ledger as its own server: JSON-RPC 2.0 over HTTP POST at `/`, events over a WebSocket at
 * `/ws`, on a plain listener (for loopback) and, given a TLS identity, the same over HTTPS/WSS on a
 * second listener (for a wallet on another machine: what it reads, and that it reads it from this
 * ledger, stay between the two). Methods are the table's (methods.ts): params parsed with its codecs, dev-only methods
 * refused outside dev mode and without the dev secret. Requests a browser could make for a web page
 * are refused before their body is read (http-guard.ts); each source address has a budget of reads
 * (rate-limit.ts); the heavy reads run on a reader thread (reader-thread.ts). Every failure is a
 * JSON-RPC error object; nothing a client sends can crash the process.
 */
import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Codec } from '@nightjar/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { isDevSecret } from './dev-secret.js';
import {
  RPC_ERRORS,
  RpcError,
  DEV_SECRET_HEADER,
  isDevOnly,
  LEDGER_METHODS,
  parseParams,
  wireName,
  type CallContext,
  type LedgerMethodName,
  MAX_DEPOSITS_PER_READ,
  MAX_MEMOS_PER_READ,
  type LedgerEvent,
} from '@nightjar/protocol/ledger-client';
import { HttpGuard, type HttpGuardOptions } from './http-guard.js';
import { MAX_LEAVES_PER_READ, type Ledger } from './ledger.js';
import {
  AddressBuckets,
  callCost,
  DEFAULT_RATE_LIMIT,
  rowsRead,
  type RateLimit,
  type ReadCaps,
} from './rate-limit.js';
import { spkiSha256Of } from './tls-identity.js';

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_BATCH = 64;
/** A subscriber that falls this far behind is disconnected rather than buffered without bound. */
const MAX_SOCKET_BUFFER_BYTES = 8 * 1024 * 1024;
const MAX_SOCKETS = 256;
const READ_CAPS: ReadCaps = {
  leaves: MAX_LEAVES_PER_READ,
  memos: MAX_MEMOS_PER_READ,
  deposits: MAX_DEPOSITS_PER_READ,
  blockRows: 256,
};

/** The table's methods by wire name (`dev_setFaults` is `setFaults`). */
const BY_WIRE_NAME = new Map(
  (Object.keys(LEDGER_METHODS) as LedgerMethodName[]).map((name) => [wireName(name), name]),
);

/** Parses `params` with the method's codec and calls it on the ledger, with the call's context. */
function dispatch(
  ledger: Ledger,
  name: LedgerMethodName,
  params: unknown,
  context: CallContext,
): Promise<unknown> {
  const codec: Codec<unknown> = LEDGER_METHODS[name].params;
  const parsed = parseParams(codec, params);
  return (ledger[name] as (params: unknown, context: CallContext) => Promise<unknown>).call(
    ledger,
    parsed,
    context,
  );
}

/** What one HTTP request brings to each of its calls. */
interface RequestScope {
  ledger: Ledger;
  buckets: AddressBuckets;
  context: CallContext;
  /** Whether the request carries the ledger's dev secret (checked only for a dev-only call). */
  hasDevSecret(): boolean;
}

interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

function failure(id: JsonRpcResponse['id'], code: number, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

async function handleOne(scope: RequestScope, request: unknown): Promise<JsonRpcResponse> {
  const { ledger } = scope;
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return failure(null, RPC_ERRORS.invalidRequest, 'request must be an object');
  }
  const r = request as Record<string, unknown>;
  const id = typeof r.id === 'string' || typeof r.id === 'number' || r.id === null ? r.id : null;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string')
    return failure(id, RPC_ERRORS.invalidRequest, 'expected {jsonrpc: "2.0", method, params?, id}');
  const name = BY_WIRE_NAME.get(r.method);
  if (!name) return failure(id, RPC_ERRORS.methodNotFound, `no method ${r.method.slice(0, 64)}`);
  if (isDevOnly(name)) {
    if (!ledger.dev) return failure(id, RPC_ERRORS.notAllowed, `${r.method} is only available in dev mode`);
    if (!scope.hasDevSecret())
      return failure(
        id,
        RPC_ERRORS.notAllowed,
        `${r.method} needs the ledger's dev secret (${DEV_SECRET_HEADER})`,
      );
  }
  const params = r.params === undefined ? {} : r.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return failure(id, RPC_ERRORS.invalidParams, 'params must be one object');
  const address = scope.context.remoteAddress;
  const cost = callCost(name, params, READ_CAPS);
  if (!scope.buckets.take(address, cost))
    return failure(id, RPC_ERRORS.rateLimited, 'too many reads from this address; retry shortly');
  let read = cost;
  try {
    const result = await dispatch(ledger, name, params, scope.context);
    read = rowsRead(name, result) ?? cost;
    return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
  } catch (err) {
    read = 1;
    if (err instanceof RpcError) return failure(id, err.code, err.message);
    // Malformed params that slipped past a method's checks surface as TypeErrors: still the caller's fault.
    if (err instanceof TypeError) return failure(id, RPC_ERRORS.invalidParams, 'invalid params');
    return failure(id, RPC_ERRORS.internal, 'internal error');
  } finally {
    // Paid for what it asked; charged for what it read (a call costs at least 1).
    scope.buckets.refund(address, cost - Math.max(1, read));
  }
}

export interface LedgerServer {
  /** The plain JSON-RPC URL (loopback unless `host` says otherwise). */
  url: string;
  wsUrl: string;
  /** The JSON-RPC URL over TLS (`https://`), when served with `tls`. */
  tlsUrl: string | undefined;
  /** The event socket over TLS (`wss://`), when served with `tls`. */
  tlsWsUrl: string | undefined;
  /** SHA-256 (hex) of the TLS certificate's SubjectPublicKeyInfo: the pin clients check. */
  tlsSpkiSha256: string | undefined;
  /** The TLS certificate (PEM), for a client that trusts it as its CA instead of pinning. */
  tlsCertPem: string | undefined;
  /** The secret dev-only calls must carry (`RpcLedgerClient`'s `devSecret`); undefined outside dev mode. */
  devSecret: string | undefined;
  /** The interfaces and ports the listeners are bound to (a URL names a loopback address for a wildcard). */
  bound: { plain: AddressInfo; tls: AddressInfo | undefined };
  close(): Promise<void>;
}

export interface LedgerTlsOptions {
  keyPem: string;
  certPem: string;
  /** Interface the TLS listener binds (default 127.0.0.1); the Host header may name it. */
  host?: string;
  /** Its port (default 0: a free one). */
  port?: number;
}

export interface ServeLedgerOptions extends HttpGuardOptions {
  /** Interface the plain HTTP listener binds (default 127.0.0.1); the Host header may name it. */
  host?: string;
  /** Port (0 picks a free one). */
  port?: number;
  /**
   * Also serve JSON-RPC and `/ws` over HTTPS/WSS on a listener of their own, with the same guard,
   * the same per-address read budget and the same socket cap as the plain one.
   */
  tls?: LedgerTlsOptions;
  logger?: boolean;
  /** Each source address's budget of reads (default {@link DEFAULT_RATE_LIMIT}). */
  rateLimit?: RateLimit;
  /** Serve the heavy reads from a reader thread (default true; a ledger in a file only). */
  readerThread?: boolean;
}

/** What both listeners share: one budget per address, one set of event sockets. */
interface SharedState {
  ledger: Ledger;
  buckets: AddressBuckets;
  wss: WebSocketServer;
  sockets: Set<WebSocket>;
  logger: boolean;
}

/** One listener's Fastify app: JSON-RPC at `/`, the event socket at `/ws`, behind `guard`. */
function buildApp(shared: SharedState, guard: HttpGuard, tls: LedgerTlsOptions | undefined): FastifyInstance {
  const { ledger, buckets, wss, sockets } = shared;
  const app = (
    tls
      ? Fastify({
          logger: shared.logger,
          bodyLimit: MAX_BODY_BYTES,
          https: { key: tls.keyPem, cert: tls.certPem, minVersion: 'TLSv1.2' },
        })
      : Fastify({ logger: shared.logger, bodyLimit: MAX_BODY_BYTES })
  ) as FastifyInstance;
  // Refused on its headers alone, before its body is read.
  app.addHook('onRequest', async (req, reply) => {
    const refusal = req.method === 'POST' ? guard.checkPost(req.headers) : guard.checkSource(req.headers);
    if (refusal)
      return reply.status(refusal.status).send(failure(null, RPC_ERRORS.invalidRequest, refusal.message));
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.post('/', async (req, reply) => {
    const secret = ledger.devSecret;
    const scope: RequestScope = {
      ledger,
      buckets,
      context: { remoteAddress: req.socket.remoteAddress ?? 'unknown' },
      hasDevSecret: () => secret !== undefined && isDevSecret(secret, req.headers[DEV_SECRET_HEADER]),
    };
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof req.body === 'string' ? req.body : '');
    } catch {
      return reply.send(failure(null, RPC_ERRORS.parseError, 'body is not valid JSON'));
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0 || parsed.length > MAX_BATCH)
        return reply.send(failure(null, RPC_ERRORS.invalidRequest, `a batch holds 1..${MAX_BATCH} requests`));
      const out: JsonRpcResponse[] = [];
      for (const one of parsed) out.push(await handleOne(scope, one));
      return reply.send(out);
    }
    return reply.send(await handleOne(scope, parsed));
  });
  app.setErrorHandler((err, _req, reply) => {
    const tooLarge = (err as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE';
    void reply
      .status(200)
      .send(
        failure(
          null,
          tooLarge ? RPC_ERRORS.invalidRequest : RPC_ERRORS.internal,
          tooLarge ? 'request too large' : 'internal error',
        ),
      );
  });
  app.setNotFoundHandler((_req, reply) => {
    void reply
      .status(404)
      .send(failure(null, RPC_ERRORS.methodNotFound, 'POST JSON-RPC to / or open a WebSocket at /ws'));
  });
  app.server.on('upgrade', (req, socket, head) => {
    if (guard.checkSource(req.headers)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    if (req.url !== '/ws' || sockets.size >= MAX_SOCKETS) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', () => ws.terminate());
      ws.on('message', () => undefined);
    });
  });
  return app;
}

const withSlash = (address: string) => (address.endsWith('/') ? address : `${address}/`);

/**
 * Serves `ledger` on `host:port` (port 0 picks a free one), and over TLS on `tls.host:tls.port`
 * when `tls` is given.
 */
export async function serveLedger(ledger: Ledger, options: ServeLedgerOptions = {}): Promise<LedgerServer> {
  const host = options.host ?? '127.0.0.1';
  const shared: SharedState = {
    ledger,
    buckets: new AddressBuckets(options.rateLimit ?? DEFAULT_RATE_LIMIT),
    wss: new WebSocketServer({ noServer: true, maxPayload: 4096 }),
    sockets: new Set<WebSocket>(),
    logger: options.logger ?? false,
  };
  if (options.readerThread !== false) await ledger.startReaderThread();
  const plain = buildApp(shared, new HttpGuard(host, options), undefined);
  const tls = options.tls;
  const secure = tls ? buildApp(shared, new HttpGuard(tls.host ?? '127.0.0.1', options), tls) : undefined;
  const unsubscribe = ledger.subscribe((event: LedgerEvent) => {
    const data = JSON.stringify(event);
    for (const ws of shared.sockets) {
      if (ws.bufferedAmount > MAX_SOCKET_BUFFER_BYTES) ws.close(1011, 'subscriber too slow');
      else ws.send(data);
    }
  });
  const close = async () => {
    unsubscribe();
    for (const ws of shared.sockets) ws.terminate();
    shared.wss.close();
    await Promise.all([plain.close(), secure?.close()]);
  };

  let url: string;
  let tlsUrl: string | undefined;
  try {
    url = withSlash(await plain.listen({ host, port: options.port ?? 0 }));
    if (secure && tls)
      tlsUrl = withSlash(await secure.listen({ host: tls.host ?? '127.0.0.1', port: tls.port ?? 0 }));
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url,
    wsUrl: url.replace(/^http/, 'ws') + 'ws',
    tlsUrl,
    tlsWsUrl: tlsUrl === undefined ? undefined : tlsUrl.replace(/^https/, 'wss') + 'ws',
    tlsSpkiSha256: tls ? spkiSha256Of(new X509Certificate(tls.certPem)) : undefined,
    tlsCertPem: tls?.certPem,
    devSecret: ledger.devSecret,
    bound: {
      plain: plain.server.address() as AddressInfo,
      tls: secure ? (secure.server.address() as AddressInfo) : undefined,
    },
    close,
  };
}
