/**
 * Requests the HTTPS client library would tidy up: paths sent byte for byte (no URL parsing, so
 * `%zz` and `..` reach the server as written), duplicate headers, and bytes over TLS that are not
 * HTTP at all. Both trust exactly the engine's boot certificate.
 */
import { Agent, request } from 'node:https';
import { connect } from 'node:tls';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Bytes the response occupied on the socket (head and body), for a response read by `tls`. */
  bytes?: number;
}

export interface RawRequest {
  method: string;
  /** Sent as is in the request line; Node only refuses control characters and spaces. */
  path: string;
  /** An array value sends the header once per element. */
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
}

export class RawHttps {
  private readonly origin: URL;
  readonly agent: Agent;

  constructor(
    baseUrl: string,
    private readonly ca: string,
  ) {
    this.origin = new URL(baseUrl);
    this.agent = new Agent({ ca, keepAlive: true, maxSockets: 8 });
  }

  send(r: RawRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.origin.hostname,
          port: this.origin.port,
          method: r.method,
          path: r.path,
          headers: r.headers,
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      // A stalled reply is a failure to answer, not something to wait out.
      req.setTimeout(5_000, () => req.destroy(new Error(`no answer to ${r.method} ${r.path.slice(0, 80)}`)));
      req.end(r.body);
    });
  }

  /**
   * Writes `bytes` on a fresh TLS connection and reads the first response back (`bodiless` for a
   * reply to HEAD, whose `content-length` announces a body that is not sent).
   */
  tls(bytes: string | Buffer, bodiless = false): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      let received = Buffer.alloc(0);
      const socket = connect(
        { host: this.origin.hostname, port: Number(this.origin.port), ca: this.ca },
        () => socket.write(bytes),
      );
      const settle = (): void => {
        const parsed = parseResponse(received, bodiless);
        if (!parsed) return;
        socket.destroy();
        resolve(parsed);
      };
      socket.on('data', (c: Buffer) => {
        received = Buffer.concat([received, c]);
        try {
          settle();
        } catch (err) {
          socket.destroy();
          reject(err as Error);
        }
      });
      socket.on('error', reject);
      socket.on('close', () =>
        reject(new Error(`closed without a response: ${received.toString('latin1')}`)),
      );
      socket.setTimeout(5_000, () => socket.destroy(new Error('no response over TLS')));
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The first HTTP/1.x response in `raw` (content-length bodies: what the engine writes), once complete. */
export function parseResponse(raw: Buffer, bodiless = false): RawResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(statusLine);
  if (!status) throw new Error(`bad status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = bodiless ? 0 : Number(headers['content-length'] ?? 0);
  if (raw.length < end + 4 + length) return undefined;
  const text = raw.subarray(end + 4, end + 4 + length).toString('utf8');
  return { status: Number(status[1]), headers, text, bytes: end + 4 + length };
}
