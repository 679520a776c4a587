/**
 * The client core against a real engine: a verified, logged-in session; a revoked token is
 * replaced and the call retried once; a suspended account stops the client (403 1150).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountSuspendedError,
  ComposeHashMismatchError,
  createClient,
  getOpenOrders,
  getTime,
  NotFoundError,
  getOrder,
} from '../src/index.js';
import { login } from '../../engine/test/harness.js';
import { pins, startTestVenue, type TestVenue } from './helpers.js';

let v: TestVenue;
beforeAll(async () => {
  v = await startTestVenue();
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
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err).toMatchObject({ code: 1301, status: 404, retryable: false });
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
    expect(err).toBeInstanceOf(ComposeHashMismatchError);
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
      expect(err).toBeInstanceOf(AccountSuspendedError);
      expect(err).toMatchObject({ code: 1150, status: 403, retryable: false });
      // Later calls fail at once, without a new token.
      expect(await getOpenOrders(c).catch((e: unknown) => e)).toBe(err);
    } finally {
      await c.close();
    }
  });
});
