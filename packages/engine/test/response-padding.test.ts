/**
 * Issue 30, item 5: the engine's answers carried their own sizes (a placement's answer 303 bytes,
 * a cancel's 279, each open order about 150 more, an error under 400), so a response told which
 * request it answered. Over real TLS, counting the plaintext bytes each response occupies on the
 * socket (status line, headers, body): every answer (success, error, 404, too large, 429, a router
 * failure, bytes that are not HTTP, a refused upgrade, HEAD, the OpenAPI document) is a bucket
 * size, the small ones all the smallest, and every JSON body still parses to the same value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact, RESPONSE_SIZE_BUCKETS } from '@nightjar/protocol';
import { startTestVenue, type TestVenue } from '@nightjar/testkit';
import { RawHttps, type RawResponse } from './raw-https.js';

const SMALLEST = RESPONSE_SIZE_BUCKETS[0]!;
const LARGEST = RESPONSE_SIZE_BUCKETS[RESPONSE_SIZE_BUCKETS.length - 1]!;

function expectBucket(r: RawResponse, label: string): void {
  const bytes = r.bytes ?? -1;
  expect(
    RESPONSE_SIZE_BUCKETS.includes(bytes) || (bytes > LARGEST && bytes % LARGEST === 0),
    `${label}: ${bytes}`,
  ).toBe(true);
}

/** The padding is trailing whitespace only: the JSON value is what it was. */
function expectJsonIntact(r: RawResponse, label: string): void {
  const trimmed = r.text.trimEnd();
  expect(r.text.slice(trimmed.length), label).toMatch(/^ *$/);
  expect(parseJsonExact(r.text, 64), label).toEqual(parseJsonExact(trimmed, 64));
}

let v: TestVenue;
let raw: RawHttps;
let token: string;

beforeAll(async () => {
  v = await startTestVenue({ publicReadRateLimit: { capacity: 1, refillPerSecond: 0.001 } });
  raw = new RawHttps(v.engine.url, v.engine.certificate.certPem);
  ({ token } = await v.newAccount());
}, 60_000);
afterAll(async () => {
  raw?.close();
  await v?.close();
});

const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;

describe('padded responses', () => {
  it('every answer a session sees is the smallest bucket, whatever it answers', async () => {
    const small: Array<[string, string | Buffer, number]> = [
      ['health', get('/health'), 200],
      ['time', get('/time'), 200],
      ['info', get('/info'), 200],
      ['instruments', get('/instruments'), 200],
      ['open orders (none)', get('/account/orders', `Authorization: Bearer ${token}\r\n`), 200],
      ['no token', get('/account/orders'), 401],
      ['bad token', get('/account/orders', 'Authorization: Bearer nope\r\n'), 401],
      ['no such route', get('/no/such/route'), 404],
      ['no such order', get(`/orders/${'ab'.repeat(16)}`, `Authorization: Bearer ${token}\r\n`), 404],
      [
        'bad JSON',
        `POST /orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n{`,
        400,
      ],
      ['router failure (bad percent-encoding)', get('/orders/%zz'), 400],
      ['not HTTP', 'GARBAGE\r\n\r\n', 400],
      ['HTTP/1.0, closing', 'GET /health HTTP/1.0\r\n\r\n', 200],
      ['Connection: close', get('/health', 'Connection: close\r\n'), 200],
      ['upgrade to a wrong path', get('/nope', 'Upgrade: websocket\r\nConnection: Upgrade\r\n'), 404],
      ['upgrade with a query', get('/v1/stream?t=1', 'Upgrade: websocket\r\nConnection: Upgrade\r\n'), 400],
    ];
    for (const [label, bytes, status] of small) {
      const r = await raw.tls(bytes);
      expect(r.status, label).toBe(status);
      expect(r.bytes, label).toBe(SMALLEST);
      expectJsonIntact(r, label);
    }
    // A public read costs a tenth of the address's bucket of 1: the eleventh is 429 with Retry-After.
    for (let i = 0; i < 11; i++) {
      const r = await raw.tls(get('/tree/root?tree_id=0'));
      expect([r.status, r.bytes], `read ${i}`).toEqual([i < 10 ? 200 : 429, SMALLEST]);
      if (i === 10) expect(r.headers['retry-after']).toMatch(/^\d+$/);
      expectJsonIntact(r, `read ${i}`);
    }
  });

  it('an oversized body, HEAD and the OpenAPI document are bucket sizes too', async () => {
    const big = 'x'.repeat(20_000);
    const tooLarge = await raw.tls(
      `POST /orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n${big}`,
    );
    // The venue answers an oversized body 400 1000 (its catalogue has no 413).
    expect([tooLarge.status, JSON.parse(tooLarge.text).code]).toEqual([400, 1000]);
    expectBucket(tooLarge, 'oversized body');
    expectJsonIntact(tooLarge, 'oversized body');

    const head = await raw.tls('HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n', true);
    expect([head.status, head.text]).toEqual([200, '']);
    expect(head.bytes).toBe(SMALLEST);
    const headBad = await raw.tls('HEAD /orders/%zz HTTP/1.1\r\nHost: x\r\n\r\n', true);
    expect(headBad.status).toBe(400);
    expect(headBad.bytes).toBe(SMALLEST);
    // Through the error handler and then the hook: padded once, not twice.
    const headUnauthorized = await raw.tls('HEAD /account/orders HTTP/1.1\r\nHost: x\r\n\r\n', true);
    expect(headUnauthorized.status).toBe(401);
    expect(headUnauthorized.bytes).toBe(SMALLEST);
    // A HEAD's content-length is the GET's (padded) one.
    const getHealth = await raw.tls(get('/health'));
    expect(head.headers['content-length']).toBe(getHealth.headers['content-length']);

    // A static evidence file is served byte for byte: a header carries its filler.
    const evidence = await raw.tls(get('/evidences/README.txt'));
    expect([evidence.status, evidence.bytes]).toEqual([200, SMALLEST]);
    expect(evidence.text).toMatch(/^These files are static gateway evidence\.[^]*for that\.\n$/);

    const openapi = await raw.tls(get('/openapi.json'));
    expect(openapi.status).toBe(200);
    expectBucket(openapi, 'openapi');
    expectJsonIntact(openapi, 'openapi');
  });

  it('the content-length announces the padded body exactly (keep-alive clients read on)', async () => {
    const r = await raw.send({ method: 'GET', path: '/no/such/route' });
    expect(r.status).toBe(404);
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.text));
    expect(r.headers['keep-alive']).toMatch(/^timeout=\d+$/);
    const again = await raw.send({ method: 'GET', path: '/health' });
    expect(again.status).toBe(200);
  });
});
