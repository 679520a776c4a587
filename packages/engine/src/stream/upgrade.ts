/**
 * The HTTP upgrade to `/v1/stream` on the engine's HTTPS server. The upgrade is unauthenticated and
 * carries no token: a query string is refused (400 1001) so that no credential can end up in a
 * URL or a log. A full venue (authenticated sockets, or sockets waiting to log in) answers 503 with
 * `Retry-After` (code 5001; for sockets waiting to log in, only past the address's fair share of
 * them), an address over its budget of sockets waiting to log in 429 (1401), before any WebSocket
 * work; other paths answer 404. Refusals carry the venue's envelope and
 * `x-request-id`.
 */
import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { stringifyJson, VENUE_ROUTES, VenueError } from '@nightjar/protocol';
import { paddedRawResponse } from '../wire/pad-response.js';
import type { StreamHub } from './hub.js';

/** The route table's upgrade route, the only path the upgrade answers. */
export const STREAM_PATH = VENUE_ROUTES.stream.path;

/** Answers a refused upgrade with the envelope, padded to a response bucket like every answer. */
function refuse(socket: Duplex, error: VenueError): void {
  const retryAfterSeconds = error.retryAfterSeconds;
  const headers: [string, string][] = [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['x-request-id', randomBytes(12).toString('hex')],
    ...(retryAfterSeconds === undefined
      ? []
      : [['Retry-After', String(retryAfterSeconds)] as [string, string]]),
    ['Connection', 'close'],
  ];
  socket.once('finish', () => socket.destroy());
  socket.end(
    paddedRawResponse(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
      headers,
      stringifyJson(error.toEnvelope()),
    ),
  );
}

/** Listens for upgrades on `server`; returns a function that stops listening and closes the ws server. */
export function attachStreamUpgrade(
  server: Server,
  hub: StreamHub,
  onSocket: (ws: WebSocket, socket: Duplex, remoteAddress: string | undefined) => void,
): () => void {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: hub.limits.hardPayloadBytes,
    perMessageDeflate: false,
    clientTracking: false,
  });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // A reset during the handshake must never become an uncaught error.
    socket.on('error', () => socket.destroy());
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (path !== STREAM_PATH) return refuse(socket, new VenueError(1301, 'no such route'));
    if (queryAt >= 0)
      return refuse(socket, new VenueError(1001, 'no query string on /v1/stream: log in with op login'));
    const remoteAddress = req.socket.remoteAddress;
    const refusal = hub.upgradeRefusal(remoteAddress);
    if (refusal) return refuse(socket, refusal);
    // Synchronous without verifyClient, so the capacity checks above cannot be raced.
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws, socket, remoteAddress));
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    wss.close();
  };
}
