/**
 * A test client that talks to the engine as a real client does: HTTPS with keep-alive, trusting
 * exactly the engine's boot certificate (no verification disabled), JSON parsed exactly.
 */
import { Agent, request } from 'node:https';
import { parseJsonExact, stringifyJson } from '@nightjar/protocol';

/** Exact parse, then integers that fit a double become numbers: tests read `code: 1301`, u64 maxima stay bigint. */
export function numbersWhereSafe(value: unknown): unknown {
  if (typeof value === 'bigint')
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  if (Array.isArray(value)) return value.map(numbersWhereSafe);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numbersWhereSafe(v)]));
  return value;
}

export interface HttpsResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  token?: string;
  body?: unknown;
  /** Raw body text (sent as is), for malformed-input tests. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export class HttpsClient {
  readonly agent: Agent;
  constructor(
    readonly baseUrl: string,
    certPem: string,
    /** Connect from this local address (another 127.0.0.x is another client to per-address limits). */
    localAddress?: string,
  ) {
    this.agent = new Agent({
      ca: certPem,
      keepAlive: true,
      maxSockets: 64,
      ...(localAddress ? { localAddress } : {}),
    });
  }

  // Test bodies are read field by field; `any` keeps the assertions short and is checked at run time.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async send<T = any>(path: string, options: RequestOptions = {}): Promise<HttpsResponse<T>> {
    const url = new URL(path, this.baseUrl);
    const payload = options.rawBody ?? (options.body === undefined ? undefined : stringifyJson(options.body));
    const headers: Record<string, string> = { ...options.headers };
    if (payload !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method: options.method ?? (payload === undefined ? 'GET' : 'POST'), headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            try {
              body = text.length > 0 ? numbersWhereSafe(parseJsonExact(text, 64)) : undefined;
            } catch {
              body = text;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, text });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
