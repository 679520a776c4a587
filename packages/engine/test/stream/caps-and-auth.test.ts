/** Socket caps (503 on a full venue, 4290 past 8 per account) and account changes acting on open sockets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { login, startTestVenue, type TestVenue } from '../harness.js';
import { eventually, StreamClient } from './stream-client.js';

describe('stream caps and account enforcement', () => {
  let v: TestVenue;
  let adminToken: string;

  beforeAll(async () => {
    v = await startTestVenue({ loginRateLimit: { capacity: 1000, refillPerSecond: 1000 } });
    adminToken = await login(v.client, v.admin);
  });
  afterAll(async () => {
    await v.close();
  });

  const hub = () => v.engine.context.streamHub;
  const admin = (path: string) => v.client.send(path, { method: 'POST', token: adminToken });

  it('the 9th login of an account gets 4290 and that socket stays unauthenticated', async () => {
    const { token, accountId } = await v.newAccount();
    const eight = await Promise.all(Array.from({ length: 8 }, () => StreamClient.login(v, token)));
    expect(hub().accountSocketCount(accountId)).toBe(8);
    const ninth = await StreamClient.connect(v);
    expect(await ninth.request({ op: 'login', token })).toMatchObject({
      op: 'error',
      code: 4290,
      message: 'account over its concurrent-socket limit (8)',
    });
    expect(await ninth.request({ op: 'subscribe', channels: ['orders'] })).toMatchObject({ code: 1101 });
    expect(await ninth.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    // A refresh on one of the eight is not a new socket.
    expect(await eight[0]!.request({ op: 'login', token })).toMatchObject({ op: 'login' });
    // Another account is not affected.
    const other = await v.newAccount();
    await (await StreamClient.login(v, other.token)).close();
    // One of the eight leaves: the ninth may log in.
    await eight[7]!.close();
    await eventually(() => hub().accountSocketCount(accountId) === 7, 'the slot to free');
    expect(await ninth.request({ op: 'login', token })).toMatchObject({ op: 'login' });
    await Promise.all([...eight.slice(0, 7), ninth].map((c) => c.close()));
  });

  it('suspension closes every socket of the account at once: error 1150, then 4403', async () => {
    const account = await v.newAccount();
    const a = await StreamClient.login(v, account.token);
    const b = await StreamClient.login(v, account.token);
    const bystander = await StreamClient.login(v, (await v.newAccount()).token);
    expect((await admin(`/admin/accounts/${account.credentials.api_key}/disable`)).status).toBe(200);
    for (const c of [a, b]) {
      expect(await c.next()).toMatchObject({ op: 'error', code: 1150, message: 'account disabled' });
      expect(await c.closed).toEqual({ code: 4403, reason: 'account suspended' });
    }
    expect(await bystander.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    // And a suspended account's token cannot log in a new socket.
    const c = await StreamClient.connect(v);
    expect(await c.request({ op: 'login', token: account.token })).toMatchObject({ code: 1150 });
    await Promise.all([c.close(), bystander.close()]);
  });

  it('revoking a token closes the sockets using it (1101, then 4401); the account’s other tokens stay', async () => {
    const account = await v.newAccount();
    const second = await login(v.client, account.credentials);
    const a = await StreamClient.login(v, account.token);
    const b = await StreamClient.login(v, second);
    const revoked = await v.client.send('/auth/token/revoke', { method: 'POST', token: account.token });
    expect(revoked.status).toBe(200);
    expect(await a.next()).toMatchObject({ op: 'error', code: 1101, message: 'token revoked' });
    expect(await a.closed).toEqual({ code: 4401, reason: 'token no longer valid' });
    expect(await b.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    await b.close();
  });

  it('revoke-tokens closes every socket of the account (1101, then 4401) without suspending it', async () => {
    const account = await v.newAccount();
    const a = await StreamClient.login(v, account.token);
    const b = await StreamClient.login(v, account.token);
    expect((await admin(`/admin/accounts/${account.credentials.api_key}/revoke-tokens`)).status).toBe(200);
    for (const c of [a, b]) {
      expect(await c.next()).toMatchObject({ code: 1101, message: 'token invalidated by an operator' });
      expect((await c.closed).code).toBe(4401);
    }
  });
});

describe('a full venue', () => {
  let v: TestVenue;

  beforeAll(async () => {
    v = await startTestVenue({ stream: { maxSockets: 3 } });
  });
  afterAll(async () => {
    await v.close();
  });

  const upgrade = () =>
    new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
      const ws = new WebSocket(v.engine.url.replace(/^https:/, 'wss:') + '/v1/stream', {
        ca: v.engine.certificate.certPem,
      });
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            ...(typeof res.headers['retry-after'] === 'string'
              ? { retryAfter: res.headers['retry-after'] }
              : {}),
          }),
        );
      });
      ws.on('open', () => {
        ws.close();
        resolve({ status: 101, body: '' });
      });
      ws.on('error', reject);
    });

  it('refuses the upgrade with 503, Retry-After and 5001 past its socket cap, unauthenticated sockets included', async () => {
    const open = await Promise.all([1, 2, 3].map(() => StreamClient.connect(v)));
    const refused = await upgrade();
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('2');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 5001 });
    expect(v.engine.context.streamHub.stats().refusedUpgrades).toBe(1);
    await open[0]!.close();
    await eventually(() => v.engine.context.streamHub.stats().sockets === 2, 'the socket to go');
    expect((await upgrade()).status).toBe(101);
    await Promise.all(open.slice(1).map((c) => c.close()));
  });
});
