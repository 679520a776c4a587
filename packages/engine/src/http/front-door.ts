/**
 * The raw HTTPS server beneath Fastify. Some responses are written before any Fastify hook runs
 * (the router's bad-URL and parameter-length answers, Node's own refusals, bytes that are not
 * HTTP at all), so the venue's conventions are applied here, where every request and every
 * connection passes: each request is stamped with its `x-request-id` the moment Node parses it,
 * and connection-level errors are answered with the envelope instead of Node's or Fastify's body.
 */
import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { VenueError } from '@nightjar/protocol';
import { paddedRawResponse } from '../wire/pad-response.js';

const requestIds = new WeakMap<IncomingMessage, string>();

function newRequestId(): string {
  return randomBytes(12).toString('hex');
}

/**
 * Fastify's `genReqId`: the id the request was stamped with, so `req.id` and the header agree.
 * (`inject()` bypasses the server; it gets a fresh id and no header.)
 */
export function requestIdOf(raw: IncomingMessage): string {
  return requestIds.get(raw) ?? newRequestId();
}

/** Same test Node applies before it answers an Expect header itself. */
const CONTINUE_EXPECTATION = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * Wires the raw server: stamps every request ahead of Fastify's listener, and routes the cases
 * Node would answer with an empty body or silence into the pipeline (where `framingError`
 * refuses them with the envelope) or to `answerOnSocket`. Pair with `requireHostHeader: false`.
 */
export function wireRawServer(server: Server): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const id = newRequestId();
    requestIds.set(req, id);
    // Headers set on the raw response survive Fastify's writeHead and its direct writes alike.
    res.setHeader('x-request-id', id);
  });
  // Without a listener Node answers an unknown Expect with a bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    server.emit('request', req, res);
  });
  // Without a listener Node drops a CONNECT without a word; the venue is no proxy.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    answerOnSocket(socket, new VenueError(1000, 'CONNECT is not supported'));
  });
}

/** Checks Node leaves to us once it no longer answers them itself (see `wireRawServer`). */
export function framingError(raw: IncomingMessage): VenueError | undefined {
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is refused.
  if (raw.httpVersion === '1.1' && raw.headers.host === undefined)
    return new VenueError(1000, 'Host header is required');
  const expect = raw.headers.expect;
  if (expect !== undefined && !CONTINUE_EXPECTATION.test(expect))
    return new VenueError(1000, 'unsupported Expect header');
  return undefined;
}

function clientErrorOf(err: { code?: string }): VenueError {
  switch (err.code) {
    case 'HPE_INVALID_URL':
      return new VenueError(1001, 'malformed request target');
    case 'HPE_HEADER_OVERFLOW':
      return new VenueError(1000, 'request headers too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new VenueError(1000, 'request not received in time');
    default:
      return new VenueError(1000, 'malformed HTTP request');
  }
}

/**
 * Writes the envelope straight to a socket that has no ServerResponse, then closes it, padded as
 * every response is. A reply to HEAD carries the headers only: a body there would be read as
 * garbage by the client.
 */
function answerOnSocket(socket: Duplex, venue: VenueError, head = false): void {
  // A response already on the wire (a pipelined predecessor) must not be interleaved with ours.
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify(venue.toEnvelope());
    socket.write(
      paddedRawResponse(
        `HTTP/1.1 ${venue.status} ${STATUS_CODES[venue.status]}`,
        [
          ['x-request-id', newRequestId()],
          ['content-type', 'application/json; charset=utf-8'],
          ['connection', 'close'],
        ],
        body,
        head,
      ),
    );
  }
  socket.destroy();
}

/**
 * Fastify's `clientErrorHandler`: the parser rejected the bytes (not HTTP, bad request line or
 * headers, oversized headers, conflicting lengths) so there is no request and no route. Answers
 * with the envelope and a fresh request id, then closes, as Node's default does.
 */
export function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // The method is only known from the bytes: best effort, the failed packet usually starts the request.
  const head = Buffer.isBuffer(err.rawPacket) && err.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  answerOnSocket(socket, clientErrorOf(err), head);
}
