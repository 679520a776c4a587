/** Socket caps (503 on a full venue, 4290 past 8 per account) and account changes acting on open sockets. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { login, startTestVenue, type TestVenue } from '@nightjar/testkit';
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

describe('socket caps: sockets waiting to log in have their own budget', () => {
  let v: TestVenue;

  beforeAll(async () => {
    v = await startTestVenue({
      loginRateLimit: { capacity: 1000, refillPerSecond: 1000 },
      stream: { maxSockets: 3, maxAnonymousSockets: 5, maxAnonymousPerAddress: 3 },
    });
  });
  afterAll(async () => {
    await v.close();
  });

  const hub = () => v.engine.context.streamHub;
  const upgrade = (localAddress = '127.0.0.1') =>
    new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
      const ws = new WebSocket(v.engine.url.replace(/^https:/, 'wss:') + '/v1/stream', {
        ca: v.engine.certificate.certPem,
        localAddress,
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
  const openAnonymous = (localAddress: string, n: number) =>
    Promise.all(Array.from({ length: n }, () => StreamClient.connect(v, '/v1/stream', localAddress)));

  it('an attacker holding its whole budget of sockets it never logs in does not lock a trader out', async () => {
    const attacker = await openAnonymous('127.0.0.2', 3);
    // Its next upgrade is refused: 429 1401 with Retry-After, counted.
    const refused = await upgrade('127.0.0.2');
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('2');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 1401 });
    expect(hub().stats()).toMatchObject({ anonymous: 3, refusedUpgrades: 1 });
    // A trader from another address upgrades and logs in.
    const { token, accountId } = await v.newAccount();
    const trader = await StreamClient.login(v, token);
    expect(trader.loginReply).toMatchObject({ result: { account_id: accountId } });
    expect(hub().stats()).toMatchObject({ anonymous: 3, authenticated: 1 });
    // Sockets that log in leave the anonymous budget: the attacker's address may open again.
    await attacker[0]!.request({ op: 'login', token });
    expect(hub().stats()).toMatchObject({ anonymous: 2, authenticated: 2 });
    const again = await StreamClient.connect(v, '/v1/stream', '127.0.0.2');
    await Promise.all([...attacker, again, trader].map((c) => c.close()));
    await eventually(() => hub().stats().sockets === 0, 'every socket to go');
    expect(hub().stats()).toMatchObject({ anonymous: 0, authenticated: 0 });
  });

  it('a full budget of sockets waiting to log in is shared between addresses; past its share, 503 5001', async () => {
    const { token } = await v.newAccount();
    const traders = await Promise.all([1, 2].map(() => StreamClient.login(v, token)));
    const evicted = await openAnonymous('127.0.0.2', 1);
    const waiting = [...(await openAnonymous('127.0.0.2', 2)), ...(await openAnonymous('127.0.0.3', 2))];
    // Full (5): a new address is under its share (5 / 3 addresses = 1), so the oldest socket of
    // the address holding the most gives way (4408) rather than the newcomer being refused.
    const newcomer = await StreamClient.connect(v, '/v1/stream', '127.0.0.4');
    expect(await evicted[0]!.closed).toEqual({
      code: 4408,
      reason: 'no login yet: slot given to a new connection',
    });
    expect(hub().stats()).toMatchObject({ anonymous: 5, anonymousEvictions: 1 });
    // That address now holds its share: its next upgrade is refused, 503 5001 with Retry-After.
    const refused = await upgrade('127.0.0.4');
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('2');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 5001 });
    waiting.push(newcomer);
    // Five sockets waiting and two sessions: the third session still fits the authenticated cap.
    expect(await waiting[0]!.request({ op: 'login', token })).toMatchObject({ op: 'login' });
    // The authenticated cap is full now: another login is refused and its socket stays waiting,
    expect(await waiting[1]!.request({ op: 'login', token })).toMatchObject({ op: 'error', code: 5001 });
    expect(await waiting[1]!.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    // and so is any upgrade (it could not log in), from any address.
    await waiting[2]!.close();
    await eventually(() => hub().stats().anonymous === 3, 'the waiting socket to go');
    expect((await upgrade('127.0.0.5')).status).toBe(503);
    await traders[0]!.close();
    await eventually(() => hub().stats().authenticated === 2, 'a session to go');
    expect((await upgrade('127.0.0.5')).status).toBe(101);
    await Promise.all([...traders.slice(1), ...waiting.filter((_, i) => i !== 2)].map((c) => c.close()));
  });
});
