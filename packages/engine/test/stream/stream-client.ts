/**
 * A `/v1/stream` test client: a real `ws` WebSocket over TLS that trusts exactly the engine's boot
 * certificate, reads frames exactly (u64-safe) and checks the per-connection seq contract on every
 * frame. Tests await frames, never time.
 */
import { WebSocket } from 'ws';
import { parseJsonExact, stringifyJson } from '@nightjar/protocol';
import { type TestVenue, numbersWhereSafe } from '@nightjar/testkit';

// Frames are read field by field in tests and checked at run time.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Frame = Record<string, any>;

export interface Closed {
  code: number;
  reason: string;
}

const WAIT_MS = 5_000;

export class StreamClient {
  readonly frames: Frame[] = [];
  /** Seq violations seen (must stay empty: seq is 1, 2, 3, … on every connection). */
  readonly seqErrors: string[] = [];
  readonly closed: Promise<Closed>;
  /** The reply to the login made by {@link StreamClient.login}. */
  loginReply: Frame | undefined;
  private readIndex = 0;
  /** Replies already returned by {@link StreamClient.request}; {@link StreamClient.next} skips them. */
  private readonly consumed = new Set<Frame>();
  private waiters: (() => void)[] = [];
  private nextRequestId = 1;
  private isClosed = false;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        this.seqErrors.push('binary frame from server');
        return;
      }
      const frame = numbersWhereSafe(parseJsonExact(data.toString(), 64)) as Frame;
      const expected = this.frames.length + 1;
      if (frame.seq !== expected) this.seqErrors.push(`seq ${String(frame.seq)} where ${expected} was due`);
      this.frames.push(frame);
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.isClosed = true;
        resolve({ code, reason: reason.toString() });
        this.wake();
      });
    });
    ws.on('error', () => undefined);
  }

  /** `localAddress` (another 127.0.0.x) makes it another client to per-address limits. */
  static async connect(venue: TestVenue, path = '/v1/stream', localAddress?: string): Promise<StreamClient> {
    const ws = new WebSocket(venue.engine.url.replace(/^https:/, 'wss:') + path, {
      ca: venue.engine.certificate.certPem,
      ...(localAddress ? { localAddress } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
    });
    return new StreamClient(ws);
  }

  /** A logged-in client. */
  static async login(
    venue: TestVenue,
    token: string,
    fields: { cancel_on_disconnect?: boolean } = {},
    localAddress?: string,
  ): Promise<StreamClient> {
    const client = await StreamClient.connect(venue, '/v1/stream', localAddress);
    const reply = await client.request({ op: 'login', token, ...fields });
    if (reply.op !== 'login') throw new Error(`login failed: ${JSON.stringify(reply)}`);
    client.loginReply = reply;
    return client;
  }

  send(frame: object): void {
    this.ws.send(stringifyJson(frame));
  }

  /** Sends `frame` with a fresh request_id and returns the reply (or error) that echoes it. */
  async request(frame: object): Promise<Frame> {
    const requestId = `r${this.nextRequestId++}`;
    this.send({ ...frame, request_id: requestId });
    const reply = await this.find((f) => f.request_id === requestId);
    this.consumed.add(reply);
    return reply;
  }

  /** The next frame not yet read, in order. */
  async next(): Promise<Frame> {
    for (;;) {
      await this.until(() => this.readIndex < this.frames.length, 'a frame');
      const frame = this.frames[this.readIndex++]!;
      if (!this.consumed.has(frame)) return frame;
    }
  }

  /** The first unread frame matching `match` (frames before it stay unread). */
  async find(match: (f: Frame) => boolean): Promise<Frame> {
    let found: Frame | undefined;
    await this.until(() => {
      for (let i = this.readIndex; i < this.frames.length; i++)
        if (!this.consumed.has(this.frames[i]!) && match(this.frames[i]!)) {
          found = this.frames[i];
          return true;
        }
      return false;
    }, 'a matching frame');
    return found!;
  }

  /** Events of one channel received so far. */
  events(channel: string): Frame[] {
    return this.frames.filter((f) => f.channel === channel);
  }

  async until(condition: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
    if (condition()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; last: ${JSON.stringify(this.frames.at(-1))}`)),
        timeoutMs,
      );
      const check = () => {
        if (condition()) {
          clearTimeout(timer);
          resolve();
        } else if (this.isClosed) {
          clearTimeout(timer);
          reject(new Error(`socket closed while waiting for ${what}`));
        } else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }

  close(code = 1000): Promise<Closed> {
    this.ws.close(code);
    return this.closed;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** Awaits a condition on the engine's side (it changes as the engine handles I/O), turn by turn, with a cap. */
export async function eventually(condition: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
