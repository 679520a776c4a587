/**
 * One TLS socket to the engine and an HTTP/1.1 client that can only ever use that socket.
 *
 * The engine's certificate is self-signed and new at each boot (spec: "not rooted in a public
 * certificate authority"), so no CA can vouch for it; what vouches for it is the transport
 * attestation, which binds the SHA-256 of its SubjectPublicKeyInfo. So the handshake does not ask
 * for a CA path, but the certificate is still checked: valid now, issued for this host, and its
 * SPKI hash recorded from this very socket. Until `verifyTransport` has checked the evidence
 * against that hash, the socket carries nothing but the public reads verification needs
 * (`publicGet`); `request` refuses with `TRANSPORT_NOT_VERIFIED`.
 */
import type { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { isIP, type NetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect, type TLSSocket } from 'node:tls';
import {
  httpHeadBytes,
  PAD_HEADER,
  padHeaderValue,
  padJsonBody,
  parseJsonExact,
  REQUEST_SIZE_BUCKETS,
  spkiSha256Of,
  stringifyJson,
} from '@nightjar/protocol';
import {
  isNightjarError,
  NIGHTJAR_ERROR__TRANSPORT_CLOSED,
  NIGHTJAR_ERROR__TRANSPORT_NOT_VERIFIED,
  NIGHTJAR_ERROR__TRANSPORT_TLS,
  NightjarError,
} from '../errors/index.js';

export interface HttpResponse<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Exact JSON (u64 as bigint), or the text when the body is not JSON. */
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  /** Bearer token for `Authorization`. */
  token?: string;
  /** JSON body (bigints written exactly). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Hands the agent its one socket once; any later connection attempt fails (no silent reconnect). */
class OneSocketAgent extends Agent {
  constructor(private socket: TLSSocket | undefined) {
    super({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1, scheduling: 'fifo' });
  }

  override createConnection(
    _options: NetConnectOpts,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex {
    const socket = this.socket;
    this.socket = undefined;
    if (socket && !socket.destroyed) return socket;
    callback?.(
      new NightjarError(NIGHTJAR_ERROR__TRANSPORT_CLOSED, {
        detail: 'the verified socket is closed; open and verify a new one',
      }),
      undefined as never,
    );
    return undefined as never;
  }
}

const verifiedSockets = new WeakSet<PinnedSocket>();

/** Marks a socket verified; only `verifyTransport` calls this (it is not exported from the package). */
export function markVerified(socket: PinnedSocket): void {
  verifiedSockets.add(socket);
}

export class PinnedSocket {
  readonly spkiSha256: string;
  readonly certificate: X509Certificate;
  private readonly agent: OneSocketAgent;
  private detached = false;

  constructor(
    readonly url: URL,
    private readonly socket: TLSSocket,
  ) {
    const cert = socket.getPeerX509Certificate();
    if (!cert)
      throw new NightjarError(NIGHTJAR_ERROR__TRANSPORT_TLS, {
        detail: 'the server presented no certificate',
      });
    this.certificate = cert;
    this.spkiSha256 = spkiSha256Of(cert);
    this.agent = new OneSocketAgent(socket);
  }

  get verified(): boolean {
    return verifiedSockets.has(this);
  }

  get closed(): boolean {
    return this.detached || this.socket.destroyed;
  }

  /** Resolves when the socket closes. */
  onClose(listener: () => void): void {
    if (this.socket.destroyed) queueMicrotask(listener);
    else this.socket.once('close', listener);
  }

  /** A GET without credentials: all verification needs before the socket is trusted. */
  publicGet<T = unknown>(path: string): Promise<HttpResponse<T>> {
    return this.send<T>(path, {});
  }

  /** Any request, only once this socket has been verified. */
  request<T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    if (!this.verified)
      return Promise.reject(
        new NightjarError(NIGHTJAR_ERROR__TRANSPORT_NOT_VERIFIED, {
          detail: 'this socket has not been verified',
        }),
      );
    return this.send<T>(path, options);
  }

  /**
   * Takes the verified socket out of the HTTP client (for a WebSocket upgrade on it). The
   * pinned socket is unusable afterwards.
   */
  detach(): TLSSocket {
    if (!this.verified)
      throw new NightjarError(NIGHTJAR_ERROR__TRANSPORT_NOT_VERIFIED, {
        detail: 'this socket has not been verified',
      });
    if (this.closed)
      throw new NightjarError(NIGHTJAR_ERROR__TRANSPORT_CLOSED, { detail: 'the verified socket is closed' });
    this.detached = true;
    // Node's documented way to take a socket out of an agent's pool.
    this.socket.emit('agentRemove');
    // A keep-alive agent unrefs its idle sockets; the new owner (a WebSocket) must keep the
    // process alive while it waits for frames.
    this.socket.ref();
    return this.socket;
  }

  close(): void {
    this.detached = true;
    this.agent.destroy();
    this.socket.destroy();
  }

  private send<T>(path: string, options: RequestOptions): Promise<HttpResponse<T>> {
    if (this.closed)
      return Promise.reject(
        new NightjarError(NIGHTJAR_ERROR__TRANSPORT_CLOSED, { detail: 'the verified socket is closed' }),
      );
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    const { headers, payload } = paddedRequest(method, path, this.url.host, options);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port || 443,
          path,
          method,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            try {
              body = text.length > 0 ? parseJsonExact(text, 64) : undefined;
            } catch {
              body = text;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, text });
          });
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
}

export { PAD_HEADER };

/**
 * The headers and body of a request whose whole HTTP/1.1 message lands on a size bucket
 * (`REQUEST_SIZE_BUCKETS`): a JSON body gets trailing whitespace, a bodiless request a
 * {@link PAD_HEADER} of filler. Every header is set here (`connection` too), so Node adds none
 * and the head's length is known before it is written.
 */
export function paddedRequest(
  method: string,
  path: string,
  host: string,
  options: RequestOptions,
): { headers: Record<string, string>; payload: string | undefined } {
  const headers: Record<string, string> = { host, connection: 'keep-alive', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const json = options.body === undefined ? undefined : stringifyJson(options.body);
  if (json === undefined) {
    const pad = padHeaderValue(requestHeadBytes(method, path, headers), 0, REQUEST_SIZE_BUCKETS);
    if (pad !== undefined) headers[PAD_HEADER] = pad;
    return { headers, payload: undefined };
  }
  headers['content-type'] = 'application/json';
  const payload = padJsonBody(
    json,
    (length) => requestHeadBytes(method, path, { ...headers, 'content-length': length }),
    REQUEST_SIZE_BUCKETS,
  );
  headers['content-length'] = String(Buffer.byteLength(payload));
  return { headers, payload };
}

/** Bytes of the request line and headers as Node writes them: `NAME: value\r\n` each, then CRLF. */
export function requestHeadBytes(method: string, path: string, headers: Record<string, string>): number {
  return httpHeadBytes(`${method} ${path} HTTP/1.1`, Object.entries(headers));
}

/**
 * Headers for the WebSocket upgrade (GET `path`) that bring its head to a request bucket like any
 * other request. `ws` writes its handshake headers after the caller's; they are listed here under
 * the names `ws` uses, at their fixed widths (the key is always 16 bytes in base64), so `ws`
 * replaces their values in place and the count holds. Open the socket with `perMessageDeflate`
 * off: its offer is one more header, and compressed frames would undo their padding.
 */
export function paddedUpgradeHeaders(
  path: string,
  host: string,
  extra: { headers?: Record<string, string>; origin?: string } = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    host,
    ...extra.headers,
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': 'A'.repeat(24),
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    ...(extra.origin === undefined ? {} : { Origin: extra.origin }),
  };
  const pad = padHeaderValue(requestHeadBytes('GET', path, headers), 0, REQUEST_SIZE_BUCKETS);
  if (pad !== undefined) headers[PAD_HEADER] = pad;
  return headers;
}

export interface OpenPinnedSocketParameters {
  /** The engine's origin, `https://host:port`. */
  url: string | URL;
  /** Handshake deadline in ms (default 10,000). */
  timeoutMs?: number;
  now?: () => number;
}

export type OpenPinnedSocketReturnType = PinnedSocket;

/** Opens the TLS socket and checks its certificate's validity period and host. */
export async function openPinnedSocket(
  params: OpenPinnedSocketParameters,
): Promise<OpenPinnedSocketReturnType> {
  const url = new URL(params.url);
  if (url.protocol !== 'https:')
    throw new NightjarError(NIGHTJAR_ERROR__TRANSPORT_TLS, {
      detail: 'the engine is reached over https only',
    });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const socket = connect({
    host,
    port: Number(url.port || 443),
    ...(isIP(host) ? {} : { servername: host }),
    ALPNProtocols: ['http/1.1'],
    // No CA can vouch for a per-boot self-signed certificate; the attestation does (see above).
    rejectUnauthorized: false,
  });
  const timer = setTimeout(
    () =>
      socket.destroy(
        new NightjarError(NIGHTJAR_ERROR__TRANSPORT_CLOSED, { detail: 'TLS handshake timed out' }),
      ),
    params.timeoutMs ?? 10_000,
  );
  try {
    await once(socket, 'secureConnect');
  } catch (err) {
    socket.destroy();
    throw isNightjarError(err, NIGHTJAR_ERROR__TRANSPORT_CLOSED)
      ? err
      : new NightjarError(NIGHTJAR_ERROR__TRANSPORT_CLOSED, {
          detail: `TLS connect failed: ${(err as Error).message}`,
        });
  } finally {
    clearTimeout(timer);
  }
  try {
    const pinned = new PinnedSocket(url, socket);
    checkCertificate(pinned.certificate, host, params.now?.() ?? Date.now());
    return pinned;
  } catch (err) {
    socket.destroy();
    throw err;
  }
}

function checkCertificate(cert: X509Certificate, host: string, nowMs: number): void {
  if (nowMs < Date.parse(cert.validFrom) || nowMs > Date.parse(cert.validTo))
    throw new NightjarError(NIGHTJAR_ERROR__TRANSPORT_TLS, {
      detail: 'the server certificate is not valid now',
    });
  const matches = isIP(host) ? cert.checkIP(host) !== undefined : cert.checkHost(host) !== undefined;
  if (!matches)
    throw new NightjarError(NIGHTJAR_ERROR__TRANSPORT_TLS, {
      detail: `the server certificate is not issued for ${host}`,
    });
}
