/**
 * Reads are charged (DESIGN.md section 9, reads 0.1): tree reads and settlement status to the
 * account's bucket, the public `/tree/root` to the caller's address. The quote routes' per-address
 * limiter stays bounded without forgiving a limited address, and all callers together share one
 * quote budget. Clients on other loopback addresses (127.0.0.x) are other callers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestVenue, type TestVenue, HttpsClient, type HttpsResponse } from '@nightjar/testkit';

const frozen = Date.now(); // buckets never refill mid-test

function from(v: TestVenue, address: string): HttpsClient {
  return new HttpsClient(v.engine.url, v.engine.certificate.certPem, address);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function expectLimited(r: HttpsResponse<any>): void {
  expect([r.status, r.body.code]).toEqual([429, 1401]);
  expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

describe('reads are charged', () => {
  let v: TestVenue;
  const clients: HttpsClient[] = [];
  beforeAll(async () => {
    v = await startTestVenue({
      now: () => frozen,
      orderRateLimit: { capacity: 1, refillPerSecond: 1 },
      publicReadRateLimit: { capacity: 1, refillPerSecond: 1 },
    });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(async () => {
    await v.close();
  });

  const commitment = '0'.repeat(63) + '1';
  for (const path of [
    `/tree/inclusion?note_commitment=${commitment}`,
    '/tree/leaves?from=0&to=5',
    '/settlement/status/7',
  ])
    it(`${path.split('?')[0]} takes 0.1 from the account's bucket: the 11th of a bucket of 1 is 429 1401`, async () => {
      const { token } = await v.newAccount();
      for (let i = 0; i < 10; i++) expect((await v.client.send(path, { token })).status).not.toBe(429);
      expectLimited(await v.client.send(path, { token }));
      // Charged before anything is parsed: a malformed request over the limit is refused the same way.
      expectLimited(await v.client.send(path.replace(/[0-9]+$/, 'x'), { token }));
      // The account's order operations share that bucket.
      expectLimited(await v.client.send('/orders', { token, body: {} }));
      // Another account is untouched.
      const other = await v.newAccount();
      expect((await v.client.send(path, { token: other.token })).status).not.toBe(429);
    });

  it('/tree/root (public) takes 0.1 from the caller’s address bucket; another address is untouched', async () => {
    const a = from(v, '127.0.0.2');
    const b = from(v, '127.0.0.3');
    clients.push(a, b);
    for (let i = 0; i < 10; i++) expect((await a.send('/tree/root')).status).toBe(200);
    expectLimited(await a.send('/tree/root'));
    expectLimited(await a.send('/tree/root?tree_id=99'));
    expect((await b.send('/tree/root')).status).toBe(200);
  });
});

describe('quote routes', () => {
  let v: TestVenue;
  const clients: HttpsClient[] = [];
  const nonce = '11'.repeat(32);
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await v.close();
  });

  it('a full per-address table refuses new addresses instead of forgiving a limited one', async () => {
    v = await startTestVenue({
      now: () => frozen,
      attestation: { rateLimit: { capacity: 1, refillPerSecond: 0.01, maxAddresses: 2 } },
    });
    const [a, b, c] = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((ip) => from(v, ip));
    clients.push(a!, b!, c!);
    expect((await a!.send(`/transport-attestation?nonce=${nonce}`)).status).toBe(200);
    expectLimited(await a!.send('/attestation'));
    expect((await b!.send('/attestation')).status).toBe(200);
    // The table holds two addresses, both limited: a third is refused, not let in at a's expense.
    expectLimited(await c!.send('/attestation'));
    expectLimited(await a!.send('/attestation'));
    expectLimited(await a!.send(`/transport-attestation?nonce=${nonce}`));
  });

  it('all callers together share one quote budget: 429 1401 with Retry-After once it is spent', async () => {
    v = await startTestVenue({
      now: () => frozen,
      attestation: {
        rateLimit: { capacity: 5, refillPerSecond: 1 },
        globalRateLimit: { capacity: 3, refillPerSecond: 0.5 },
      },
    });
    const callers = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((ip) => from(v, ip));
    clients.push(...callers);
    for (const c of callers.slice(0, 3)) expect((await c.send('/attestation')).status).toBe(200);
    const refused = await callers[3]!.send(`/transport-attestation?nonce=${nonce}`);
    expectLimited(refused);
    expect(refused.body.message).toMatch(/venue-wide/);
    expectLimited(await callers[0]!.send('/attestation'));
    // Public reads that are not quotes are not charged to it.
    expect((await callers[3]!.send('/info')).status).toBe(200);
  });
});
