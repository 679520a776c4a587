/**
 * The front door under hostile HTTP: whatever raises the answer (a route, the router, Fastify's
 * parsers, Node's HTTP parser), every response carries `x-request-id` and the `{code, message}`
 * envelope with a catalogue code, and client garbage never earns a 5xx. Over real HTTPS, with
 * raw paths and raw TLS where a client library would have tidied the request up.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, isErrorCode, routeEntries } from '@nightjar/protocol';
import { MAX_PARAM_LENGTH } from '../src/http/envelope.js';
import { buildHttpServer } from '../src/http/server.js';
import { generateBootCertificate } from '../src/tls.js';
import { startTestVenue, type TestVenue } from '@nightjar/testkit';
import { RawHttps, type RawResponse } from './raw-https.js';

/** Routes whose documented answer, until attestation is wired, is 503 5001. */
const NOT_YET = /^\/(transport-attestation|attestation)([?#]|$)/;

/** The venue's conventions for one response to `method path`. */
function expectConventions(r: RawResponse, method: string, path: string): void {
  const label = `${method} ${path.slice(0, 200)} -> ${r.status} ${r.text.slice(0, 200)}`;
  expect(r.headers['x-request-id'], label).toMatch(/^[0-9a-f]{24}$/);
  if (method === 'HEAD') {
    expect(r.text, label).toBe('');
    expect(r.status < 500 || (r.status === 503 && NOT_YET.test(path)), label).toBe(true);
    return;
  }
  let body: { code?: unknown; message?: unknown };
  try {
    body = JSON.parse(r.text) as typeof body;
  } catch {
    throw new Error(`not JSON: ${label}`);
  }
  if (r.status >= 200 && r.status < 300) return;
  expect(isErrorCode(body.code), label).toBe(true);
  expect(typeof body.message, label).toBe('string');
  expect(ERROR_CATALOGUE[body.code as keyof typeof ERROR_CATALOGUE].status, label).toBe(r.status);
  if (r.status >= 500) expect(body.code === 5001 && NOT_YET.test(path), label).toBe(true);
}

function expectEnvelope(r: RawResponse, status: number, code: number): void {
  expect([r.status, r.headers['x-request-id']]).toEqual([status, expect.stringMatching(/^[0-9a-f]{24}$/)]);
  expect(JSON.parse(r.text)).toEqual({ code, message: expect.any(String) });
}

/** Every REST route of the table; `:p` is the path parameter the fuzz fills in. */
const ROUTES: ReadonlyArray<readonly [string, string]> = routeEntries()
  .filter(([, route]) => route.upgrade !== true)
  .map(([, route]) => [route.method.toUpperCase(), route.path.replace(/\{[^}]+\}/g, ':p')] as const);

// Request-target characters Node's client passes through untouched (no controls, no space).
const latin1 = fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c));
const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF');
const percentGarbage = fc
  .array(
    fc.oneof(
      fc.constantFrom('%', '%0', '%zz', '%00', '%ff', '%2f', '%2F', '%2e%2e', '..', '%c3%28', '%e2%82', '%%'),
      fc
        .tuple(fc.constantFrom('%'), fc.oneof(hexDigit, latin1), fc.oneof(hexDigit, latin1))
        .map((t) => t.join('')),
      latin1,
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => parts.join(''));
const param = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }),
  fc.constantFrom('SOL-USDC', 'ETH-USDC', '0', '7', '18446744073709551616', '-1', '%20', 'x.json'),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.~:@!$&()*+,;='), maxLength: 40 }),
  fc.integer({ min: MAX_PARAM_LENGTH - 2, max: 600 }).map((n) => 'a'.repeat(n)),
  percentGarbage,
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom('tree_id', 'from', 'to', 'note_commitment', 'nonce', 'reportData'), param),
        fc.oneof(param, fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map(String), fc.constant('')),
      ),
      { maxLength: 5 },
    )
    .map((pairs) => '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  fc.constantFrom('?', '?&&=', '?tree_id', '?tree_id=0&tree_id=1', '#frag', '?a=%zz'),
);
const routeTarget = fc
  .tuple(fc.constantFrom(...ROUTES), param, query)
  .map(([[method, path], p, q]) => ({ method, path: path.replace(':p', p) + q }));
const randomTarget = fc
  .tuple(
    fc.array(fc.oneof(param, fc.constantFrom('', '.', '..', 'orders', 'admin', 'v1', 'stream')), {
      maxLength: 6,
    }),
    query,
  )
  .map(([segments, q]) => ({ method: 'GET', path: '/' + segments.join('/') + q }));
const oddTarget = fc
  .constantFrom('*', '//', '/health/', '/%', '/?', 'http://127.0.0.1/health', '/orders/')
  .map((path) => ({
    method: 'GET',
    path,
  }));
const method = (own: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(own) },
    { weight: 2, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS') },
    // Tokens Node's parser knows but no route does, and one it refuses outright.
    { weight: 1, arbitrary: fc.constantFrom('PURGE', 'PROPFIND', 'QUERY', 'TRACE', 'SEARCH', 'BREW') },
  );
const target = fc
  .oneof(
    { weight: 6, arbitrary: routeTarget },
    { weight: 2, arbitrary: randomTarget },
    { weight: 1, arbitrary: oddTarget },
  )
  .chain((t) => method(t.method).map((m) => ({ method: m, path: t.path })));

// Large values are drawn as sizes and built at send time, so counterexamples stay readable.

/** `valid` becomes a live account token and `long` a 4000-character one at send time. */
const authorization = fc.option(
  fc.constantFrom(
    'valid',
    'long',
    'Bearer',
    'Bearer ',
    'Bearer garbage',
    'Basic Zm9vOmJhcg==',
    'bearer valid',
  ),
  { nil: undefined },
);
const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/json;',
    'application/json; charset=latin1',
    'application/jsonx',
    'application/vnd.api+json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    ';;;',
    '',
  ),
  { nil: undefined },
);
/** Present in about one request in five, so most requests get past the framing to a route. */
const rarely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
const extraHeaders = fc.record({
  // Within Node's 16 KiB header limit: the request must be parsed, not refused as oversized.
  pad: rarely(fc.integer({ min: 1, max: 6000 })),
  accept: rarely(fc.constantFrom('text/html', '*/*', 'application/xml', 'application/json;q=0')),
  'x-request-id': rarely(fc.constantFrom('client-chosen', '0'.repeat(24))),
  'content-encoding': rarely(fc.constantFrom('gzip', 'identity', 'br')),
  expect: rarely(fc.constantFrom('100-continue', 'something-else')),
  'transfer-encoding': rarely(fc.constant('chunked')),
  duplicate: rarely(fc.constantFrom('content-type', 'authorization', 'accept', 'content-length')),
});

const body = fc.option(
  fc.oneof(
    fc.uint8Array({ maxLength: 512 }).map((bytes) => ({ bytes })),
    fc.integer({ min: 1, max: 3000 }).map((deepArray) => ({ deepArray })),
    fc.integer({ min: 1, max: 3000 }).map((deepObject) => ({ deepObject })),
    fc.integer({ min: 8_000, max: 40_000 }).map((large) => ({ large })),
    fc.json(),
    fc
      .dictionary(
        fc.constantFrom(
          'api_key',
          'api_secret',
          'passphrase',
          'order_id',
          'cancel_nonce',
          'replacement',
          'symbol',
        ),
        fc.jsonValue(),
      )
      .map((o) => JSON.stringify(o)),
    fc.constantFrom('', '{', 'null', '"x"', '{"cancel_on_disconnect_default":true}'),
  ),
  { nil: undefined },
);

type Drawn<A> = A extends fc.Arbitrary<infer T> ? T : never;

function bodyOf(b: Drawn<typeof body>): Buffer | string | undefined {
  if (b === undefined || typeof b === 'string') return b;
  if ('bytes' in b) return Buffer.from(b.bytes);
  if ('deepArray' in b) return '['.repeat(b.deepArray) + ']'.repeat(b.deepArray);
  if ('deepObject' in b) return '{"a":'.repeat(b.deepObject) + '1' + '}'.repeat(b.deepObject);
  return JSON.stringify({ pad: 'x'.repeat(b.large) });
}

describe('the front door under random HTTP', () => {
  let v: TestVenue;
  let raw: RawHttps;
  let token: string;
  beforeAll(async () => {
    v = await startTestVenue();
    raw = new RawHttps(v.engine.url, v.engine.certificate.certPem);
    ({ token } = await v.newAccount());
  });
  afterAll(async () => {
    raw.close();
    await v.close();
  });

  it('overlong path parameters are 400 1001 with x-request-id, before any route or hook runs', async () => {
    const long = 'A'.repeat(MAX_PARAM_LENGTH + 1);
    for (const [m, path] of [
      ['GET', `/instruments/${long}`],
      ['DELETE', `/orders/${long}`],
      ['POST', `/admin/accounts/${long}/disable`],
      ['PUT', `/orders/${'f'.repeat(4000)}`],
    ] as const)
      expectEnvelope(await raw.send({ method: m, path }), 400, 1001);
    // At the limit the route itself answers.
    const atLimit = await raw.send({ method: 'GET', path: `/instruments/${'A'.repeat(MAX_PARAM_LENGTH)}` });
    expectEnvelope(atLimit, 404, 1301);
  });

  it('malformed percent-encoding is 400 1001 with x-request-id', async () => {
    expectEnvelope(await raw.send({ method: 'GET', path: '/orders/%00%ff..%2f' }), 400, 1001);
    expectEnvelope(await raw.send({ method: 'POST', path: '/admin/accounts/%zz/enable' }), 400, 1001);
    const head = await raw.send({ method: 'HEAD', path: '/orders/%zz' });
    expect([head.status, head.text]).toEqual([400, '']);
    expect(head.headers['x-request-id']).toMatch(/^[0-9a-f]{24}$/);
  });

  it('bytes Node refuses to parse are answered with the envelope, then the connection closes', async () => {
    for (const bytes of [
      'GARBAGE\r\n\r\n',
      '\x16\x03\x01\x00\x05hello',
      'BREW /health HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /he alth HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      'POST /orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n',
      'GET /health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n',
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`,
      'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: x\r\n\r\n',
    ]) {
      const r = await raw.tls(bytes);
      expectEnvelope(r, 400, 1000);
      expect(r.headers.connection).toBe('close');
    }
  });

  it('requests Node would answer with an empty body reach the venue: no Host, unknown Expect', async () => {
    expectEnvelope(await raw.tls('GET /health HTTP/1.1\r\n\r\n'), 400, 1000);
    expectEnvelope(await raw.tls('GET /health HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n'), 400, 1000);
    // HTTP/1.0 needs no Host; 100-continue is still honoured.
    expect((await raw.tls('GET /health HTTP/1.0\r\n\r\n')).status).toBe(200);
    const cont = await raw.send({ method: 'GET', path: '/health', headers: { expect: '100-continue' } });
    expect(cont.status).toBe(200);
  });

  it('never answers random methods, paths, headers and bodies outside the conventions', async () => {
    const request = fc.record({ target, authorization, contentType, extraHeaders, body });
    const seed = Number(process.env.HTTP_FUZZ_SEED ?? 20_251_123);
    await fc.assert(
      fc.asyncProperty(request, async (q) => {
        const payload = bodyOf(q.body);
        const headers: Record<string, string | string[]> = {};
        if (q.authorization === 'long') headers.authorization = `Bearer ${'a'.repeat(4000)}`;
        else if (q.authorization !== undefined)
          headers.authorization = q.authorization.replace('valid', `Bearer ${token}`);
        if (q.contentType !== undefined) headers['content-type'] = q.contentType;
        const { duplicate, pad, ...extra } = q.extraHeaders;
        for (const [name, value] of Object.entries(extra)) if (value !== undefined) headers[name] = value;
        if (pad !== undefined) headers['x-pad'] = 'p'.repeat(pad);
        if (duplicate === 'content-length') {
          // Two different lengths: refused by the parser, never left waiting for a body.
          const n = payload === undefined ? 0 : Buffer.byteLength(payload);
          headers['content-length'] = [String(n), String(n + 1)];
          delete headers['transfer-encoding'];
        } else if (payload !== undefined && headers['transfer-encoding'] === undefined) {
          // Node's client frames a GET, HEAD or DELETE body only when told its length; unframed, the
          // server rightly reads the body as the next request.
          headers['content-length'] = String(Buffer.byteLength(payload));
        }
        if (duplicate !== undefined && duplicate !== 'content-length')
          headers[duplicate] = [String(headers[duplicate] ?? 'one'), 'application/json'];
        const { method, path } = q.target;
        const r = await raw.send({ method, path, headers, body: payload });
        expectConventions(r, method, path);
        // The id is the venue's own, never one the client chose.
        expect(r.headers['x-request-id']).not.toBe(extra['x-request-id']);
        // A revoked token would leave the rest of the run unauthenticated.
        if (path.startsWith('/auth/token/revoke') && r.status === 200) ({ token } = await v.newAccount());
      }),
      { seed, numRuns: Number(process.env.HTTP_FUZZ_RUNS ?? 800) },
    );
    expect((await raw.send({ method: 'GET', path: '/health' })).status).toBe(200);
  }, 60_000);
});

describe('the front door while closing', () => {
  it('a request once close has begun gets 503 5001 with x-request-id, not Fastify’s body', async () => {
    const certificate = await generateBootCertificate();
    const app = buildHttpServer({ certificate });
    app.get('/ping', async () => ({ ok: true }));
    // Holds close between its start (the venue's preClose has run) and the listener closing.
    let closeStarted!: () => void;
    const started = new Promise<void>((resolve) => (closeStarted = resolve));
    let finishClose!: () => void;
    const held = new Promise<void>((resolve) => (finishClose = resolve));
    app.addHook('preClose', async () => {
      closeStarted();
      await held;
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const raw = new RawHttps(`https://127.0.0.1:${address.port}`, certificate.certPem);
    try {
      expect((await raw.send({ method: 'GET', path: '/ping' })).status).toBe(200);
      raw.close();
      const closed = app.close();
      await started;
      const r = await raw.tls('GET /ping HTTP/1.1\r\nHost: x\r\n\r\n');
      expectEnvelope(r, 503, 5001);
      expect(r.headers.connection).toBe('close');
      finishClose();
      await closed;
    } finally {
      finishClose();
      raw.close();
    }
  });
});
