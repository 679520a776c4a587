/**
 * The client core against a real engine: a verified, logged-in session; a revoked token is
 * replaced and the call retried once; a suspended account stops the client (403 1150).
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  getOpenOrders,
  getTime,
  getOrder,
  createStream,
  getInstruments,
  type RetryInfo,
  type StreamClientEvent,
} from '../src/index.js';
import { login } from '@nightjar/testkit';
import { pins, startTestVenue, type TestVenue } from './helpers.js';
import type { NightjarError } from '../src/index.js';
import {
  NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH,
  NIGHTJAR_ERROR__INVALID_RESPONSE,
  PARAMETER_CODES,
  isNightjarError,
} from '../src/index.js';

let v: TestVenue;
beforeAll(async () => {
  // A small per-account bucket (2 tokens, 2/s): the 429 test overruns it with 100 reads, however
  // slowly the machine serves them; the other tests stay far below it.
  v = await startTestVenue({ orderRateLimit: { capacity: 2, refillPerSecond: 2 } });
});
afterAll(async () => {
  await v.close();
});

const connect = async (credentials: { api_key: string; api_secret: string; passphrase: string }) => {
  const p = pins(v);
  return createClient({
    baseUrl: v.engine.url,
    pinnedRoot: p.rootCaDer,
    composeHash: p.composeHash,
    ledger: v.ledger,
    credentials,
  });
};

describe('client core', () => {
  it('verifies, logs in, reads; typed errors for venue codes', async () => {
    const { credentials } = await v.newAccount();
    const c = await connect(credentials);
    try {
      expect(c.accountId).toMatch(/.+/);
      expect(await c.bootSessionId()).toBe(v.engine.bootSessionId);
      expect((await getTime(c)).slot).toBeGreaterThan(0n);
      expect(await getOpenOrders(c)).toEqual([]);
      const err = await getOrder(c, { orderId: '11'.repeat(16) }).catch((e: unknown) => e);
      expect(isNightjarError(err, 1301)).toBe(true);
      expect(err).toMatchObject({ code: 1301, retryable: false, context: { status: 404 } });
    } finally {
      await c.close();
    }
  });

  it("parses answers with protocol's codecs; one off the spec throws INVALID_RESPONSE", async () => {
    const { credentials } = await v.newAccount();
    const c = await connect(credentials);
    try {
      const [instrument] = await getInstruments(c);
      expect(typeof instrument!.price_scale).toBe('bigint');
      expect(await c.instrument(instrument!.symbol)).toEqual(instrument);
      const real = c.transport.request.bind(c.transport);
      c.transport.request = (async (path: string, options?: Parameters<typeof real>[1]) => {
        const res = await real(path, options);
        return path === '/time' ? { ...res, body: { slot: -1 } } : res;
      }) as typeof c.transport.request;
      const err = await getTime(c).catch((e: unknown) => e);
      expect(isNightjarError(err, NIGHTJAR_ERROR__INVALID_RESPONSE)).toBe(true);
      expect((err as Error).message).toContain('/time');
      expect(isNightjarError(err)).toBe(true);
      const missing = await getOrder(c, { orderId: '11'.repeat(16) }).catch((e: unknown) => e);
      expect(isNightjarError(missing, 1301)).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('refuses a venue whose compose hash is not the pinned one, before sending credentials', async () => {
    const { credentials } = await v.newAccount();
    const p = pins(v);
    const err = await createClient({
      baseUrl: v.engine.url,
      pinnedRoot: p.rootCaDer,
      composeHash: '00'.repeat(32),
      ledger: v.ledger,
      credentials,
    }).catch((e: unknown) => e);
    expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH)).toBe(true);
  });

  it('pinnedRoot: PEM text works; a path (ready.json names one) or a bad PEM is a PARAMETER naming the fix', async () => {
    const { credentials } = await v.newAccount();
    const p = pins(v);
    const params = { baseUrl: v.engine.url, composeHash: p.composeHash, ledger: v.ledger, credentials };
    const pem = new X509Certificate(Buffer.from(p.rootCaDer)).toString();
    const client = await createClient({ ...params, pinnedRoot: pem });
    expect((await getTime(client)).unixMs).toBeGreaterThan(0);
    await client.close();
    const path = await createClient({ ...params, pinnedRoot: '/tmp/x/engine/attestation/root-ca.der' }).catch(
      (e: unknown) => e,
    );
    expect(isNightjarError(path, PARAMETER_CODES)).toBe(true);
    expect((path as Error).message).toContain('readFileSync(ready.platform_root)');
    const junk = await createClient({
      ...params,
      pinnedRoot: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n',
    }).catch((e: unknown) => e);
    expect(isNightjarError(junk, PARAMETER_CODES)).toBe(true);
    expect((junk as Error).message).toBe('pinnedRoot is not a valid PEM certificate');
  });

  it('a revoked token: one retry with a fresh token', async () => {
    const { credentials } = await v.newAccount();
    const c = await connect(credentials);
    try {
      const admin = await login(v.client, v.admin);
      await new Promise((r) => setTimeout(r, 1_100)); // issuance has one-second resolution
      const r = await v.client.send(`/admin/accounts/${credentials.api_key}/revoke-tokens`, {
        method: 'POST',
        token: admin,
      });
      expect(r.status).toBeLessThan(300);
      await new Promise((r) => setTimeout(r, 1_100));
      expect(await getOpenOrders(c)).toEqual([]);
    } finally {
      await c.close();
    }
  });

  it('a suspended account stops the client (403 1150, not retried)', async () => {
    const { credentials } = await v.newAccount();
    const c = await connect(credentials);
    try {
      const admin = await login(v.client, v.admin);
      const r = await v.client.send(`/admin/accounts/${credentials.api_key}/disable`, {
        method: 'POST',
        token: admin,
      });
      expect(r.status).toBeLessThan(300);
      const err = await getOpenOrders(c).catch((e: unknown) => e);
      expect(isNightjarError(err, 1150)).toBe(true);
      expect(err).toMatchObject({ code: 1150, retryable: false, context: { status: 403 } });
      // Later calls fail at once, without a new token.
      expect(await getOpenOrders(c).catch((e: unknown) => e)).toBe(err);
    } finally {
      await c.close();
    }
  });

  it('429: retried with jittered backoff, never sooner than Retry-After', async () => {
    const { credentials } = await v.newAccount();
    const retries: RetryInfo[] = [];
    const p = pins(v);
    const c = await createClient({
      baseUrl: v.engine.url,
      pinnedRoot: p.rootCaDer,
      composeHash: p.composeHash,
      ledger: v.ledger,
      credentials,
      onRetry: (i) => retries.push(i),
      backoff: { attempts: 8 },
    });
    try {
      // Reads cost 0.1 of a 2-token bucket that refills 2 a second: 100 at once overrun it
      // unless the venue took over 4 s to serve them.
      const all = await Promise.all(Array.from({ length: 100 }, () => getOpenOrders(c)));
      expect(all).toHaveLength(100);
      const limited = retries.filter((r) => isNightjarError(r.error, 1401));
      expect(limited.length).toBeGreaterThan(0);
      for (const r of limited) {
        const after = (r.error as NightjarError<1401>).context.retryAfterSeconds;
        expect(after).toBeGreaterThan(0);
        expect(r.delayMs).toBeGreaterThanOrEqual(after! * 1000);
      }
    } finally {
      await c.close();
    }
  }, 30_000);
});

describe('token lifetime', () => {
  let short: TestVenue;
  beforeAll(async () => {
    short = await startTestVenue({ tokenTtlSeconds: 3 });
  });
  afterAll(async () => {
    await short.close();
  });

  it('refreshes before expiry on REST and on the stream (auth_expired), without a reconnect', async () => {
    const { credentials } = await short.newAccount();
    const p = pins(short);
    const c = await createClient({
      baseUrl: short.engine.url,
      pinnedRoot: p.rootCaDer,
      composeHash: p.composeHash,
      ledger: short.ledger,
      credentials,
    });
    const stream = await createStream(c, { channels: ['orders'] });
    const errors: StreamClientEvent[] = [];
    stream.on('error', (e) => errors.push(e));
    try {
      const first = c.tokenExpiry()!;
      await new Promise((r) => setTimeout(r, 4_500));
      expect(await getOpenOrders(c)).toEqual([]);
      expect(c.tokenExpiry()!.expiresAt).toBeGreaterThan(first.expiresAt);
      await stream.send({ op: 'ping' });
      expect(stream.reconnects).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await stream.close();
      await c.close();
    }
  }, 20_000);
});
