/**
 * Issue 30, item 5, over real HTTPS and a real WebSocket: an order placement was the one request
 * of a telling size (1,795 bytes of body, every other request under 325), a fill push its own
 * frame size, and each answer its own size (a placement's 303 bytes, a cancel's 279, 150 more per
 * open order). A recording wrapper counts the bytes the SDK writes for each HTTP request (request
 * line, headers and body: what TLS carries), the plaintext bytes of each response it reads, the
 * WebSocket upgrade and its 101, and every stream frame either side sends; each is a bucket size,
 * and placement, cancel, modify, token and read requests, and their answers, are one size.
 */
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import {
  FRAME_SIZE_BUCKETS,
  REQUEST_SIZE_BUCKETS,
  RESPONSE_SIZE_BUCKETS,
  type Instrument,
} from '@nightjar/protocol';
import {
  cancelOrder,
  createStream,
  getOpenOrders,
  getOrder,
  modifyOrder,
  PinnedSocket,
  placeOrder,
  type StreamClientEvent,
} from '../src/index.js';
import { paddedRequest, requestHeadBytes } from '../src/core/transport/pinned-socket.js';
import { startTestVenue, type TestVenue } from './helpers.js';
import { advanceUntil, finalize, fund, newParty } from '@nightjar/testkit';

interface RecordedRequest {
  line: string;
  bytes: number;
  /** Plaintext bytes of its response on the socket (read before the next request is written). */
  received: number;
}

const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/1\.1\r\n/;

/** Wraps `write` on each pinned socket once: every write until the WebSocket takes it over. */
function recordHttp(requests: RecordedRequest[]) {
  const wrapped = new WeakSet<TLSSocket>();
  const wrap = (pinned: PinnedSocket) => {
    const socket = (pinned as unknown as { socket: TLSSocket }).socket;
    if (wrapped.has(socket)) return;
    wrapped.add(socket);
    socket.prependListener('data', (c: Buffer) => {
      const last = requests.at(-1);
      if (!pinned.closed && last) last.received += c.length;
    });
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (!pinned.closed) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
        const m = REQUEST_LINE.exec(buf.subarray(0, 200).toString('latin1'));
        if (m) requests.push({ line: `${m[1]} ${m[2]}`, bytes: buf.length, received: 0 });
        else if (requests.length > 0) requests[requests.length - 1]!.bytes += buf.length;
      }
      return write(chunk, ...rest);
    }) as typeof socket.write;
  };
  const { request, publicGet } = PinnedSocket.prototype;
  vi.spyOn(PinnedSocket.prototype, 'request').mockImplementation(function (this: PinnedSocket, ...args) {
    wrap(this);
    return request.apply(this, args) as never;
  });
  vi.spyOn(PinnedSocket.prototype, 'publicGet').mockImplementation(function (this: PinnedSocket, ...args) {
    wrap(this);
    return publicGet.apply(this, args) as never;
  });
}

interface RecordedUpgrade {
  /** Bytes of the upgrade request the SDK wrote. */
  request: number;
  /** Bytes of the engine's answer's head (the 101 carries no body). */
  answer: number;
  answerText: string;
}

/** The upgrade request and the head of its answer on every socket the SDK hands to a WebSocket. */
function recordUpgrades(upgrades: RecordedUpgrade[]) {
  const { detach } = PinnedSocket.prototype;
  vi.spyOn(PinnedSocket.prototype, 'detach').mockImplementation(function (this: PinnedSocket) {
    const socket = detach.apply(this);
    const u: RecordedUpgrade = { request: 0, answer: 0, answerText: '' };
    upgrades.push(u);
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
      if (u.request === 0) u.request = buf.length;
      return write(chunk, ...rest);
    }) as typeof socket.write;
    let head = Buffer.alloc(0);
    const onData = (c: Buffer) => {
      head = Buffer.concat([head, c]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      u.answer = end + 4;
      u.answerText = head.subarray(0, end + 4).toString('latin1');
      socket.off('data', onData);
    };
    socket.prependListener('data', onData);
    return socket;
  });
}

const LARGEST_RESPONSE = RESPONSE_SIZE_BUCKETS[RESPONSE_SIZE_BUCKETS.length - 1]!;
const isResponseBucket = (n: number) =>
  RESPONSE_SIZE_BUCKETS.includes(n) || (n > LARGEST_RESPONSE && n % LARGEST_RESPONSE === 0);

interface RecordedFrame {
  server: boolean;
  bytes: number;
  text: string;
}

/** Every frame `ws` sends in this process: the engine's (server side) and the SDK's. */
function recordFrames(frames: RecordedFrame[]) {
  const send = WebSocket.prototype.send;
  vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (
    this: WebSocket,
    data: unknown,
    ...rest: unknown[]
  ) {
    const text = typeof data === 'string' ? data : Buffer.from(data as Uint8Array).toString('utf8');
    frames.push({
      server: (this as unknown as { _isServer: boolean })._isServer,
      bytes: Buffer.byteLength(text),
      text,
    });
    return (send as (...a: unknown[]) => void).call(this, data, ...rest);
  } as typeof send);
}

let v: TestVenue;
let inst: Instrument;

beforeAll(async () => {
  v = await startTestVenue({ settle: true, loginRateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
}, 60_000);
afterAll(async () => {
  await v?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('padding on the wire', () => {
  it('a request’s head and body fill its bucket exactly (the head’s length counted as Node writes it)', () => {
    for (const [method, path, body] of [
      ['GET', '/orders/' + 'ab'.repeat(16), undefined],
      ['POST', '/orders', { big: 'x'.repeat(1800) }],
      ['DELETE', '/orders/' + 'ab'.repeat(16), { cancel_nonce: '1' }],
      ['PUT', '/orders/x', { big: 'x'.repeat(5000) }],
      ['POST', '/x', { big: 'x'.repeat(4096 - 150) }],
    ] as const) {
      const { headers, payload } = paddedRequest(method, path, 'localhost:1', {
        token: 't'.repeat(300),
        body,
      });
      const total = requestHeadBytes(method, path, headers) + Buffer.byteLength(payload ?? '');
      expect(REQUEST_SIZE_BUCKETS).toContain(total);
      expect(headers['content-length']).toBe(payload === undefined ? undefined : String(payload.length));
      if (payload !== undefined) expect(JSON.parse(payload)).toEqual(body);
    }
  });

  it('every request and every frame is a bucket size; placements, cancels and reads look alike', async () => {
    const requests: RecordedRequest[] = [];
    const frames: RecordedFrame[] = [];
    recordHttp(requests);
    recordFrames(frames);
    const bob = await newParty(v);
    const alice = await newParty(v);
    inst = await bob.client.instrument('SOL-USDC');
    const size = inst.min_order_size;
    const tick = inst.tick_size;
    await fund(bob, v, inst.base_mint, 4n * size);
    await fund(bob, v, inst.base_mint, 4n * size);
    await fund(alice, v, inst.quote_mint, 10n * size);
    const carol = await newParty(v);
    for (let i = 0; i < 3; i++) await fund(carol, v, inst.base_mint, 4n * size);
    await finalize(v);
    const fills: StreamClientEvent[] = [];
    const stream = await createStream(bob.client);
    stream.on('fill', (e) => fills.push(e));
    try {
      const ask = await placeOrder(bob.client, {
        symbol: 'SOL-USDC',
        side: 'ask',
        amount: size,
        price: tick,
      });
      await placeOrder(alice.client, { symbol: 'SOL-USDC', side: 'bid', amount: size, price: tick });
      await advanceUntil(v, () => fills.length === 1, 'the fill');
      await getOrder(bob.client, { orderId: ask.orderId });
      const resting = await placeOrder(bob.client, {
        symbol: 'SOL-USDC',
        side: 'ask',
        amount: size,
        price: 1000n * tick,
      });
      const modified = await modifyOrder(bob.client, {
        orderId: resting.orderId,
        side: 'ask',
        amount: size,
        price: 999n * tick,
      });
      await getOpenOrders(bob.client);
      await cancelOrder(bob.client, { orderId: modified.orderId });

      // Lists of none and of three open orders, an error and an unknown route answer alike.
      expect(await getOpenOrders(carol.client)).toHaveLength(0);
      for (let i = 0n; i < 3n; i++)
        await placeOrder(carol.client, {
          symbol: 'SOL-USDC',
          side: 'ask',
          amount: size,
          price: (900n + i) * tick,
        });
      expect(await getOpenOrders(carol.client)).toHaveLength(3);
      expect((await carol.client.transport.request('/account/orders', { token: 'nope' })).status).toBe(401);
      expect((await carol.client.transport.request('/no/such/route')).status).toBe(404);
    } finally {
      await stream.close();
      await Promise.all([bob.client.close(), alice.client.close(), carol.client.close()]);
    }

    const kinds = new Set(requests.map((r) => r.line.replace(/\/[0-9a-f]{32}\b/, '/{id}')));
    // The run covered what the analysis told apart: placements, a modify, a cancel, token and reads.
    for (const k of ['POST /orders', 'PUT /orders/{id}', 'DELETE /orders/{id}', 'POST /auth/token'])
      expect(kinds).toContain(k);
    for (const r of requests) expect(REQUEST_SIZE_BUCKETS, r.line).toContain(r.bytes);
    // One size for all of them (the smallest bucket holds a placement and a modify).
    expect(new Set(requests.map((r) => r.bytes))).toEqual(new Set([REQUEST_SIZE_BUCKETS[0]]));

    // Every answer is a bucket size; all but the attestation (its quote and collateral) the smallest.
    for (const r of requests) expect(isResponseBucket(r.received), `${r.line} -> ${r.received}`).toBe(true);
    const answers = requests.filter((r) => !r.line.startsWith('GET /transport-attestation'));
    for (const k of [
      'POST /orders',
      'PUT /orders/{id}',
      'DELETE /orders/{id}',
      'GET /orders/{id}',
      'GET /account/orders',
    ])
      expect(kinds).toContain(k);
    expect(kinds).toContain('GET /no/such/route');
    expect(new Set(answers.map((r) => r.received))).toEqual(new Set([RESPONSE_SIZE_BUCKETS[0]]));

    const server = frames.filter((f) => f.server);
    const client = frames.filter((f) => !f.server);
    expect(server.some((f) => f.text.startsWith('{"channel":"fills"'))).toBe(true);
    expect(server.some((f) => f.text.startsWith('{"channel":"orders"'))).toBe(true);
    expect(client.some((f) => f.text.startsWith('{"op":"login"'))).toBe(true);
    for (const f of frames) expect(FRAME_SIZE_BUCKETS, f.text.slice(0, 40)).toContain(f.bytes);
    // A fill push is the size of an order event, a reply or a pong.
    expect(new Set(frames.map((f) => f.bytes))).toEqual(new Set([FRAME_SIZE_BUCKETS[0]]));
  }, 60_000);

  it('the WebSocket upgrade is a request bucket and its 101 has one size, whoever connects', async () => {
    const upgrades: RecordedUpgrade[] = [];
    recordUpgrades(upgrades);
    const carol = await newParty(v);
    const dave = await newParty(v);
    const streams = [await createStream(carol.client), await createStream(dave.client)];
    try {
      expect(upgrades).toHaveLength(2);
      for (const u of upgrades) {
        expect(REQUEST_SIZE_BUCKETS, 'upgrade request').toContain(u.request);
        expect(u.answerText).toMatch(/^HTTP\/1\.1 101 /);
      }
      expect(upgrades[0]!.request).toBe(upgrades[1]!.request);
      expect(upgrades[0]!.answer).toBe(upgrades[1]!.answer);
    } finally {
      for (const s of streams) await s.close();
      await Promise.all([carol.client.close(), dave.client.close()]);
    }
  }, 60_000);
});
