/**
 * The ledger as its own server: JSON-RPC 2.0 over HTTP POST at `/`, events over a WebSocket at
 * `/ws`. Methods are the table's (methods.ts): params parsed with its codecs, dev controls refused
 * outside dev mode. Every failure is a JSON-RPC error object; nothing a client sends can crash the
 * process.
 */
import type { Codec } from '@nightjar/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { RPC_ERRORS, RpcError } from './errors.js';
import type { Ledger, TransactionOrigin } from './ledger.js';
import { LEDGER_METHODS, parseParams, wireName, type LedgerMethodName } from './methods.js';
import type { LedgerEvent } from './types.js';

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_BATCH = 64;
/** A subscriber that falls this far behind is disconnected rather than buffered without bound. */
const MAX_SOCKET_BUFFER_BYTES = 8 * 1024 * 1024;
const MAX_SOCKETS = 256;

/** The table's methods by wire name (`dev_setFaults` is `setFaults`). */
const BY_WIRE_NAME = new Map(
  (Object.keys(LEDGER_METHODS) as LedgerMethodName[]).map((name) => [wireName(name), name]),
);

/** Parses `params` with the method's codec and calls it on the ledger, saying who asked (admission counts per source). */
function dispatch(ledger: Ledger, name: LedgerMethodName, params: unknown, source: string): Promise<unknown> {
  const codec: Codec<unknown> = LEDGER_METHODS[name].params;
  const parsed = parseParams(codec, params);
  return (ledger[name] as (params: unknown, origin: TransactionOrigin) => Promise<unknown>).call(
    ledger,
    parsed,
    { source },
  );
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

async function handleOne(ledger: Ledger, request: unknown, source: string): Promise<JsonRpcResponse> {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return failure(null, RPC_ERRORS.invalidRequest, 'request must be an object');
  }
  const r = request as Record<string, unknown>;
  const id = typeof r.id === 'string' || typeof r.id === 'number' || r.id === null ? r.id : null;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string')
    return failure(id, RPC_ERRORS.invalidRequest, 'expected {jsonrpc: "2.0", method, params?, id}');
  const name = BY_WIRE_NAME.get(r.method);
  if (!name) return failure(id, RPC_ERRORS.methodNotFound, `no method ${r.method.slice(0, 64)}`);
  if (LEDGER_METHODS[name].surface === 'dev' && !ledger.dev)
    return failure(id, RPC_ERRORS.notAllowed, `${r.method} is only available in dev mode`);
  const params = r.params === undefined ? {} : r.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return failure(id, RPC_ERRORS.invalidParams, 'params must be one object');
  try {
    const result = await dispatch(ledger, name, params, source);
    return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
  } catch (err) {
    if (err instanceof RpcError) return failure(id, err.code, err.message);
    // Malformed params that slipped past a method's checks surface as TypeErrors: still the caller's fault.
    if (err instanceof TypeError) return failure(id, RPC_ERRORS.invalidParams, 'invalid params');
    return failure(id, RPC_ERRORS.internal, 'internal error');
  }
}

export interface LedgerServer {
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

/** Serves `ledger` on `host:port` (port 0 picks a free one). */
export async function serveLedger(
  ledger: Ledger,
  options: { host?: string; port?: number; logger?: boolean } = {},
): Promise<LedgerServer> {
  const app: FastifyInstance = Fastify({ logger: options.logger ?? false, bodyLimit: MAX_BODY_BYTES });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.post('/', async (req, reply) => {
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
      for (const one of parsed) out.push(await handleOne(ledger, one, req.ip));
      return reply.send(out);
    }
    return reply.send(await handleOne(ledger, parsed, req.ip));
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

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const sockets = new Set<WebSocket>();
  app.server.on('upgrade', (req, socket, head) => {
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
  const unsubscribe = ledger.subscribe((event: LedgerEvent) => {
    const data = JSON.stringify(event);
    for (const ws of sockets) {
      if (ws.bufferedAmount > MAX_SOCKET_BUFFER_BYTES) ws.close(1011, 'subscriber too slow');
      else ws.send(data);
    }
  });

  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const url = address.endsWith('/') ? address : `${address}/`;
  return {
    url,
    wsUrl: url.replace(/^http/, 'ws') + 'ws',
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await app.close();
    },
  };
}
