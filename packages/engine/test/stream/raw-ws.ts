/**
 * A WebSocket client written against the wire (RFC 6455) over TLS, for what `ws` will not do: stop
 * reading (a slow consumer) and send malformed frames (fuzzing). It trusts the engine's boot
 * certificate, as a real client would.
 */
import { randomBytes } from 'node:crypto';
import { connect, type TLSSocket } from 'node:tls';

export interface RawFrame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

export function encodeFrame(
  opcode: number,
  payload: Buffer,
  options: { fin?: boolean; mask?: boolean; rsv?: number; declaredLength?: number } = {},
): Buffer {
  const fin = options.fin ?? true;
  const mask = options.mask ?? true;
  const length = options.declaredLength ?? payload.length;
  const head: number[] = [(fin ? 0x80 : 0) | ((options.rsv ?? 0) << 4) | (opcode & 0x0f)];
  const maskBit = mask ? 0x80 : 0;
  if (length < 126) head.push(maskBit | length);
  else if (length < 65536) head.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    head.push(maskBit | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(...big);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ key[i % 4]!));
  return Buffer.concat([Buffer.from(head), key, masked]);
}

export class RawWsClient {
  private buffer = Buffer.alloc(0);
  readonly frames: RawFrame[] = [];
  /** Text frames received, and seq violations among them (seq must run 1, 2, 3, …). */
  textFrames = 0;
  readonly seqErrors: string[] = [];
  readonly ended: Promise<void>;
  private waiters: (() => void)[] = [];
  private isEnded = false;

  /** The server's handshake response head, once complete. */
  private head: string | undefined;
  private readonly headReceived: Promise<string>;

  private constructor(readonly socket: TLSSocket) {
    let onHead: (head: string) => void = () => undefined;
    this.headReceived = new Promise((resolve) => (onHead = resolve));
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      if (this.head === undefined) {
        const end = this.buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        this.head = this.buffer.subarray(0, end).toString();
        this.buffer = this.buffer.subarray(end + 4);
        onHead(this.head);
      }
      this.parse();
      this.wake();
    });
    this.ended = new Promise((resolve) => {
      socket.on('close', () => {
        this.isEnded = true;
        resolve();
        this.wake();
      });
    });
    socket.on('error', () => undefined);
  }

  static async connect(baseUrl: string, certPem: string, path = '/v1/stream'): Promise<RawWsClient> {
    const url = new URL(baseUrl);
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: certPem });
    const client = new RawWsClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', () => resolve());
      socket.once('error', reject);
    });
    socket.write(
      [
        `GET ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    );
    const head = await client.headReceived;
    if (!head.startsWith('HTTP/1.1 101')) throw new Error(`upgrade refused: ${head}`);
    return client;
  }

  sendText(text: string): void {
    this.socket.write(encodeFrame(0x1, Buffer.from(text)));
  }

  sendRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** Text frames parsed as JSON (exact numbers are not needed here). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any[] {
    return this.frames.filter((f) => f.opcode === 0x1).map((f) => JSON.parse(f.payload.toString()));
  }

  /** The close frame's code, once received. */
  get closeCode(): number | undefined {
    const close = this.frames.find((f) => f.opcode === 0x8);
    return close && close.payload.length >= 2 ? close.payload.readUInt16BE(0) : undefined;
  }

  /** Waits until `condition` holds, re-checking whenever bytes arrive. */
  async until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (condition()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      const check = () => {
        if (condition()) {
          clearTimeout(timer);
          resolve();
        } else if (this.isEnded) {
          clearTimeout(timer);
          reject(new Error(`connection ended while waiting for ${what}`));
        } else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private checkSeq(payload: Buffer): void {
    this.textFrames++;
    const seq = /"seq":(\d+)/.exec(payload.subarray(0, 64).toString())?.[1];
    if (Number(seq) !== this.textFrames) this.seqErrors.push(`seq ${seq} where ${this.textFrames} was due`);
  }

  private parse(): void {
    for (;;) {
      if (this.buffer.length < 2) return;
      const b0 = this.buffer[0]!;
      const b1 = this.buffer[1]!;
      let length = b1 & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return;
      const frame = {
        fin: (b0 & 0x80) !== 0,
        opcode: b0 & 0x0f,
        payload: Buffer.from(this.buffer.subarray(offset, offset + length)),
      };
      this.frames.push(frame);
      if (frame.opcode === 0x1) this.checkSeq(frame.payload);
      this.buffer = this.buffer.subarray(offset + length);
      // Answer a close as RFC 6455 asks, so the server ends the connection without waiting.
      if (frame.opcode === 0x8 && !this.socket.destroyed)
        this.socket.write(encodeFrame(0x8, frame.payload.subarray(0, 2)));
    }
  }
}
