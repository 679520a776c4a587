/**
 * Size padding of the engine's HTTP responses (issue 30, item 5). TLS hides content but not
 * length: unpadded, a placement's answer, a cancel's, a list of N open orders and an error each had
 * their own size, so the answer told which request it was. Every response is brought to a bucket
 * of `RESPONSE_SIZE_BUCKETS` as a whole (status line, headers and body, as written to the socket):
 * a JSON body with trailing whitespace (its JSON value unchanged; every exact parser, the SDK's
 * `parseJsonExact` included, accepts it), a response without a body, or with a file served byte for
 * byte (`/evidences/*`), with a `x-pad` header (at most 4 KiB of it: a larger file goes unpadded).
 *
 * For the count to be exact the head must be known before it is written, so the headers Node would
 * add itself, whose widths vary or depend on the request (`Date`, `Connection`, `Keep-Alive`,
 * `Content-Length`), are set here with the values Node would give them; Node then adds none.
 */
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  httpHeadBytes,
  PAD_HEADER,
  padHeaderValue,
  padJsonBody,
  RESPONSE_SIZE_BUCKETS,
  type HeaderValue,
} from '@nightjar/protocol';

type Payload = string | Buffer | null | undefined;

/** Most filler a pad header carries (Node's clients refuse a head over 16 KiB). */
const MAX_HEADER_FILLER = 4096;

/** Status codes whose responses never carry a body (RFC 9110 §6.4.1). */
function bodiless(status: number, method: string): boolean {
  return method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
}

function isJson(contentType: HeaderValue | undefined): boolean {
  return typeof contentType === 'string' && /^application\/json\b/i.test(contentType);
}

/**
 * `Date`, `Connection` and `Keep-Alive` as Node's `ServerResponse` would write them (see
 * `_storeHeader`), set explicitly so Node writes these and adds nothing.
 */
function settleNodeHeaders(reply: FastifyReply, server: Server): void {
  const res: ServerResponse = reply.raw;
  if (res.sendDate && reply.getHeader('date') === undefined)
    void reply.header('date', new Date().toUTCString());
  if (reply.getHeader('connection') !== undefined) return;
  if (!res.shouldKeepAlive) {
    void reply.header('connection', 'close');
    return;
  }
  void reply.header('connection', 'keep-alive');
  const seconds = Math.floor(server.keepAliveTimeout / 1000);
  const max = server.maxRequestsPerSocket ? `, max=${server.maxRequestsPerSocket}` : '';
  if (server.keepAliveTimeout) void reply.header('keep-alive', `timeout=${seconds}${max}`);
}

function headBytesOf(reply: FastifyReply, override: Record<string, string> = {}): number {
  const status = reply.raw.statusCode;
  const message = reply.raw.statusMessage || STATUS_CODES[status] || 'unknown';
  const headers = { ...(reply.getHeaders() as Record<string, HeaderValue | undefined>), ...override };
  return httpHeadBytes(`HTTP/1.1 ${status} ${message}`, Object.entries(headers));
}

/**
 * Pads one response: returns the payload to send (the JSON body with trailing spaces) and sets
 * the headers that go with it. Idempotent: a response already on a bucket is left as it is, so
 * the error envelope (padded where Fastify runs no hooks) may pass through the hook again.
 */
export function padReply(reply: FastifyReply, payload: Payload, server: Server): Payload {
  if (reply.raw.headersSent) return payload;
  settleNodeHeaders(reply, server);
  // A second pass (see above) counts afresh.
  void reply.removeHeader(PAD_HEADER);
  const status = reply.raw.statusCode;
  const noBody = bodiless(status, reply.request.raw.method ?? 'GET');
  if (status === 204 || (status >= 100 && status < 200)) {
    // Fastify strips these from a response that may not have a body; count without them.
    void reply.removeHeader('content-type').removeHeader('content-length');
  }
  let out = payload;
  const hasPayload = payload !== undefined && payload !== null;
  // Only JSON the engine wrote itself (a string) gets whitespace: a Buffer is a file served byte
  // for byte (`/evidences/*`), whatever its type.
  if (typeof payload === 'string' && isJson(reply.getHeader('content-type') as HeaderValue | undefined)) {
    // For HEAD too: its content-length is the one the GET's padded body has.
    out = padJsonBody(
      payload,
      (length) => headBytesOf(reply, { 'content-length': length }),
      RESPONSE_SIZE_BUCKETS,
      'multiple',
    );
    void reply.header('content-length', String(Buffer.byteLength(out)));
    if (!noBody) return out;
  } else if (status >= 200 && status !== 204 && status !== 304) {
    // What Fastify would set for this payload.
    void reply.header('content-length', String(hasPayload ? Buffer.byteLength(payload) : 0));
  }
  // No body on the wire (HEAD, an empty reply) or one not to touch: a header carries the filler,
  // as long as it stays short (clients cap a head at 16 KiB); a large file goes as it is.
  const bodyBytes = noBody || out === undefined || out === null ? 0 : Buffer.byteLength(out);
  const pad = padHeaderValue(headBytesOf(reply), bodyBytes, RESPONSE_SIZE_BUCKETS, 'multiple');
  if (pad !== undefined && pad.length <= MAX_HEADER_FILLER) void reply.header(PAD_HEADER, pad);
  return out;
}

/** The `onSend` hook that pads every response of `server`'s Fastify instance (not streams: it sends none). */
export function padResponseHook(server: Server) {
  return async (_req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (payload === undefined || payload === null || typeof payload === 'string' || Buffer.isBuffer(payload))
      return padReply(reply, payload, server);
    return payload;
  };
}

/**
 * A whole response written straight to a socket (no `ServerResponse`: a request Node could not
 * parse, a refused WebSocket upgrade), padded to a bucket. `headers` go without `content-length`
 * (set here); `body` is the JSON envelope, left off the wire for a reply to HEAD (`omitBody`),
 * whose head then carries the filler.
 */
export function paddedRawResponse(
  statusLine: string,
  headers: readonly [string, string][],
  body: string,
  omitBody = false,
): string {
  const withLength = (length: string): [string, string][] => [...headers, ['content-length', length]];
  let all: [string, string][];
  let text = '';
  if (omitBody) {
    all = withLength(String(Buffer.byteLength(body)));
    const pad = padHeaderValue(httpHeadBytes(statusLine, all), 0, RESPONSE_SIZE_BUCKETS, 'multiple');
    if (pad !== undefined) all.push([PAD_HEADER, pad]);
  } else {
    text = padJsonBody(
      body,
      (length) => httpHeadBytes(statusLine, withLength(length)),
      RESPONSE_SIZE_BUCKETS,
      'multiple',
    );
    all = withLength(String(Buffer.byteLength(text)));
  }
  return `${statusLine}\r\n${all.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${text}`;
}
