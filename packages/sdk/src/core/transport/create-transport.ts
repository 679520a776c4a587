/**
 * `createTransport`: the connection a client sends credentials and orders over. Every socket it
 * uses is verified (`verifyTransport`) before its first request: requests made meanwhile wait for
 * that verification, and fail with it. When the socket closes (a reconnect, an engine restart and
 * so a new boot session), the next request opens a new socket and verifies it again; nothing is
 * ever sent on an unverified socket. A WebSocket gets its own socket, verified over HTTP first and
 * then upgraded in place, so the upgrade request is the first thing after verification on it.
 */
import { once } from 'node:events';
import type { createConnection } from 'node:net';
import WebSocket, { type ClientOptions } from 'ws';
import type { HttpResponse, RequestOptions } from './pinned-socket.js';
import { assertPinnedMeasurements } from './check-measurements.js';
import { openPinnedSocket, paddedUpgradeHeaders, type PinnedSocket } from './pinned-socket.js';
import {
  verifyTransport,
  type VerifyTransportParameters,
  type VerifyTransportReturnType,
} from './verify-transport.js';
import { isNightjarError, NIGHTJAR_ERROR__ATTESTATION_SIGNER_SET } from '../errors/index.js';

export interface CreateTransportParameters extends Omit<VerifyTransportParameters, 'socket'> {
  /** The engine's origin, `https://host:port`. */
  url: string | URL;
  /** Called after each socket passes verification (a new boot shows as a new `bootSessionId`). */
  onVerified?: (report: VerifyTransportReturnType) => void;
  handshakeTimeoutMs?: number;
}

export interface VerifiedWebSocket {
  ws: WebSocket;
  verification: VerifyTransportReturnType;
}

export interface Transport {
  /** Sends a request on the current verified socket (verifying a new one first when needed). */
  request<T = unknown>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  /** Makes sure a verified socket is open and returns its verification. */
  verify(): Promise<VerifyTransportReturnType>;
  /** Opens a WebSocket on a socket of its own, verified before the upgrade is sent. */
  openWebSocket(path?: string, options?: Omit<ClientOptions, 'createConnection'>): Promise<VerifiedWebSocket>;
  close(): void;
}

export type CreateTransportReturnType = Transport;

interface Connection {
  ready: Promise<{ socket: PinnedSocket; report: VerifyTransportReturnType }>;
}

/**
 * Upgrades a verified socket (detached from its HTTP use) to a WebSocket on `path`: the upgrade
 * request is the first thing sent after verification; a refused upgrade closes the socket.
 */
async function upgradeToWebSocket(
  raw: ReturnType<PinnedSocket['detach']>,
  url: URL,
  path: string,
  options: Omit<ClientOptions, 'createConnection'>,
): Promise<WebSocket> {
  const wsUrl = new URL(path, url);
  wsUrl.protocol = 'wss:';
  const ws = new WebSocket(wsUrl, {
    ...options,
    // The upgrade request is padded like every other request (issue 30, item 5).
    headers: paddedUpgradeHeaders(wsUrl.pathname + wsUrl.search, url.host, {
      ...(options.headers ? { headers: options.headers as Record<string, string> } : {}),
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    }),
    perMessageDeflate: false,
    protocolVersion: 13,
    createConnection: (() => raw) as unknown as typeof createConnection,
  });
  try {
    await Promise.race([
      once(ws, 'open'),
      once(ws, 'unexpected-response').then((args) => {
        const res = args[1] as { statusCode?: number } | undefined;
        throw new Error(`the WebSocket upgrade was refused with ${res?.statusCode}`);
      }),
    ]);
  } catch (err) {
    ws.terminate();
    raw.destroy();
    throw err;
  }
  return ws;
}

export function createTransport(params: CreateTransportParameters): CreateTransportReturnType {
  const url = new URL(params.url);
  assertPinnedMeasurements(params.measurements);
  let current: Connection | undefined;
  let closed = false;
  const sockets = new Set<PinnedSocket>();

  const openVerified = async () => {
    const socket = await openPinnedSocket({
      url,
      ...(params.handshakeTimeoutMs === undefined ? {} : { timeoutMs: params.handshakeTimeoutMs }),
      ...(params.now ? { now: params.now } : {}),
    });
    sockets.add(socket);
    socket.onClose(() => sockets.delete(socket));
    try {
      let report: VerifyTransportReturnType;
      try {
        report = await verifyTransport({ ...params, socket });
      } catch (err) {
        // A signer-set change can finalize between the engine's read of the set and ours: verify
        // once more, from a fresh nonce, before calling it a mismatch. Every check runs again.
        if (!isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_SIGNER_SET)) throw err;
        report = await verifyTransport({ ...params, socket });
      }
      if (closed) throw new Error('transport closed');
      params.onVerified?.(report);
      return { socket, report };
    } catch (err) {
      socket.close();
      throw err;
    }
  };

  const connection = (): Connection => {
    if (closed) throw new Error('transport closed');
    if (current) return current;
    const conn: Connection = { ready: openVerified() };
    current = conn;
    const forget = () => {
      if (current === conn) current = undefined;
    };
    // A failed verification or a closed socket is never reused: the next request starts afresh.
    conn.ready.then(({ socket }) => socket.onClose(forget), forget);
    return conn;
  };

  return {
    async request<T>(path: string, options: RequestOptions = {}) {
      const { socket } = await connection().ready;
      return socket.request<T>(path, options);
    },

    async verify() {
      return (await connection().ready).report;
    },

    async openWebSocket(path = '/v1/stream', options = {}) {
      if (closed) throw new Error('transport closed');
      const { socket, report } = await openVerified();
      const raw = socket.detach();
      const ws = await upgradeToWebSocket(raw, url, path, options);
      return { ws, verification: report };
    },

    close() {
      closed = true;
      current = undefined;
      for (const s of sockets) s.close();
      sockets.clear();
    },
  };
}
