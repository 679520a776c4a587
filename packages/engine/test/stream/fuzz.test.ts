/**
 * Random frames never crash the engine: every text or binary frame on an authenticated socket gets
 * exactly one reply (an `error` with a spec or stream code, a pong, a reply) and the socket stays
 * usable; random bytes on the wire only ever close that one connection.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, STREAM_ERROR_CODES, stringifyJson } from '@nightjar/protocol';
import { startTestVenue, USDC, type TestVenue } from '@nightjar/testkit';
import { encodeFrame, RawWsClient } from './raw-ws.js';
import { eventually, StreamClient } from './stream-client.js';

const OPS = ['login', 'subscribe', 'unsubscribe', 'order.place', 'order.cancel', 'order.modify', 'ping'];

describe('the stream under random input', () => {
  let v: TestVenue;
  let token: string;
  let validOrder: object;

  beforeAll(async () => {
    v = await startTestVenue({ orderRateLimit: { capacity: 100_000, refillPerSecond: 100_000 } });
    ({ token } = await v.newAccount());
    const trader = v.trader();
    validOrder = trader.order(await trader.deposit(USDC, 10n ** 12n));
  });
  afterAll(async () => {
    await v.close();
  });

  it('answers every random frame with one known frame and keeps the socket', async () => {
    const c = await StreamClient.login(v, token);
    const anyValue = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }),
      fc.constant(validOrder),
    );
    const frame = fc.oneof(
      fc.string({ maxLength: 300 }).map((text) => ({ text })),
      fc.json().map((text) => ({ text })),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ binary: Buffer.from(bytes) })),
      fc
        .integer({ min: 16_000, max: 32_000 })
        .map((n) => ({ text: '{"op":"ping","p":"' + 'x'.repeat(n) + '"}' })),
      fc
        .record({
          op: fc.constantFrom(...OPS, 'logout2', ''),
          fields: fc.dictionary(
            fc.constantFrom(
              'token',
              'channels',
              'params',
              'order_id',
              'request_id',
              'cancel_on_disconnect',
              'x',
            ),
            anyValue,
            { maxKeys: 4 },
          ),
        })
        .map(({ op, fields }) => ({ text: stringifyJson({ op, ...fields }) })),
    );
    const known = new Set<number>([
      ...Object.keys(ERROR_CATALOGUE).map(Number),
      ...Object.keys(STREAM_ERROR_CODES).map(Number),
    ]);
    await fc.assert(
      fc.asyncProperty(frame, async (f) => {
        const before = c.frames.length;
        if ('binary' in f) c.ws.send(f.binary, { binary: true });
        else c.ws.send(f.text);
        // A ping right after: its pong proves the socket survived and the frame was answered first.
        const pong = await c.request({ op: 'ping' });
        expect(pong.op).toBe('pong');
        const answers = c.frames.slice(before).filter((x) => x !== pong);
        expect(answers.length).toBeLessThanOrEqual(1);
        for (const a of answers) {
          if (a.op === 'error') {
            expect(known.has(a.code)).toBe(true);
            expect(a.code).not.toBe(5000);
          } else expect(['pong', 'login', 'subscribe', 'unsubscribe', 'order.place']).toContain(a.op);
        }
      }),
      { numRuns: 300 },
    );
    expect(c.seqErrors).toEqual([]);
    await c.close();
  }, 60_000);

  it('random bytes and malformed frames on the wire close only that connection', async () => {
    const baseline = v.engine.context.streamHub.stats().sockets;
    const wire = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => Buffer.from(b)),
      fc
        .record({
          opcode: fc.integer({ min: 0, max: 15 }),
          fin: fc.boolean(),
          mask: fc.boolean(),
          rsv: fc.integer({ min: 0, max: 7 }),
          payload: fc.uint8Array({ maxLength: 300 }),
        })
        .map(({ opcode, fin, mask, rsv, payload }) =>
          encodeFrame(opcode, Buffer.from(payload), { fin, mask, rsv }),
        ),
      // Invalid UTF-8 in a text frame; a length far beyond the hard cap.
      fc.constant(encodeFrame(0x1, Buffer.from([0xc3, 0x28]))),
      fc.constant(encodeFrame(0x1, Buffer.alloc(8), { declaredLength: 2 ** 40 })),
    );
    const bystander = await StreamClient.login(v, token);
    await fc.assert(
      fc.asyncProperty(fc.array(wire, { minLength: 1, maxLength: 4 }), async (chunks) => {
        const raw = await RawWsClient.connect(v.engine.url, v.engine.certificate.certPem);
        for (const chunk of chunks) raw.sendRaw(chunk);
        raw.sendText('{"op":"ping"}');
        // Half-close: whatever state the junk left the connection in, the server must finish it.
        raw.socket.end();
        await raw.ended;
        expect(await bystander.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
      }),
      { numRuns: 60 },
    );
    await bystander.close();
    await eventually(
      () => v.engine.context.streamHub.stats().sockets === baseline,
      'every fuzzed socket to go',
    );
    const fresh = await StreamClient.login(v, token);
    expect(await fresh.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    expect((await v.client.send('/health')).status).toBe(200);
    await fresh.close();
  }, 60_000);
});
