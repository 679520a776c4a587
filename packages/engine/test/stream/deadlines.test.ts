/**
 * Stream deadlines on a hand-moved clock (the same clock tokens expire by): login within 10 s
 * (absolute), a drop after more than 60 s of silence, `auth_expired` 60 s before expiry and the
 * close at expiry exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/stream/clock.js';
import { login, startTestVenue, type TestVenue } from '@nightjar/testkit';
import { eventually, StreamClient } from './stream-client.js';

describe('stream deadlines', () => {
  const clock = new ManualClock(Date.now());
  let v: TestVenue;
  let token: string;

  beforeAll(async () => {
    v = await startTestVenue({
      now: clock.now,
      stream: { clock },
      loginRateLimit: { capacity: 1000, refillPerSecond: 1000 },
    });
    ({ token } = await v.newAccount());
  });
  afterAll(async () => {
    await v.close();
  });

  /** The session the engine holds for the latest socket (timers are armed when it opens). */
  const sockets = () => v.engine.context.streamHub.stats().sockets;

  it('closes a socket that has not logged in 10 s after opening (absolute, pings do not extend it)', async () => {
    const before = sockets();
    const c = await StreamClient.connect(v);
    await eventually(() => sockets() === before + 1, 'the session');
    clock.advance(5_000);
    expect(await c.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    clock.advance(4_999);
    expect(await c.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    clock.advance(1);
    expect(await c.closed).toEqual({ code: 4408, reason: 'no login within 10 s' });
  });

  it('a login within the deadline keeps the socket open past 10 s', async () => {
    const c = await StreamClient.connect(v);
    clock.advance(9_999);
    await c.request({ op: 'login', token });
    clock.advance(30_000);
    expect(await c.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    await c.close();
  });

  it('drops a session silent for more than 60 s; any frame, a transport ping too, resets it', async () => {
    const c = await StreamClient.login(v, token);
    clock.advance(60_000);
    expect(await c.request({ op: 'ping' })).toMatchObject({ op: 'pong' }); // exactly 60 s is not "more than"
    clock.advance(59_000);
    const pong = new Promise((resolve) => c.ws.once('pong', resolve));
    c.ws.ping();
    await pong;
    clock.advance(60_000);
    expect(await c.request({ op: 'subscribe', channels: ['tree'] })).toMatchObject({ op: 'subscribe' });
    clock.advance(60_001);
    expect(await c.closed).toEqual({ code: 4408, reason: 'silent for more than 60 s' });
  });

  it('sends auth_expired 60 s before expiry and closes at expiry exactly (error 1101, then 4401)', async () => {
    const c = await StreamClient.login(v, token);
    const expiresAt = c.loginReply!.result.expires_at as number;
    // Keep the session from going silent while the token runs down.
    const keepAliveUntil = async (t: number) => {
      while (clock.now() + 30_000 < t) {
        clock.advance(30_000);
        await c.request({ op: 'ping' });
      }
      clock.advance(t - clock.now());
    };
    await keepAliveUntil(expiresAt - 60_001);
    expect(c.frames.some((f) => f.op === 'auth_expired')).toBe(false);
    clock.advance(1);
    expect(await c.find((f) => f.op === 'auth_expired')).toEqual({
      op: 'auth_expired',
      seq: expect.any(Number),
      expires_at: expiresAt,
    });
    await keepAliveUntil(expiresAt - 1);
    expect(await c.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    clock.advance(1);
    expect(await c.find((f) => f.op === 'error')).toMatchObject({ code: 1101, message: 'token expired' });
    expect(await c.closed).toEqual({ code: 4401, reason: 'token no longer valid' });
    expect(c.seqErrors).toEqual([]);
    // The same token is refused on REST at that very millisecond too.
    expect((await v.client.send('/account/settings', { token })).status).toBe(401);
  });

  it('a refresh login moves both deadlines to the new token', async () => {
    const account = await v.newAccount();
    const c = await StreamClient.login(v, account.token);
    const firstExpiry = c.loginReply!.result.expires_at as number;
    clock.advance(30_000);
    const second = await login(v.client, account.credentials);
    const reply = await c.request({ op: 'login', token: second });
    expect(reply.result.expires_at).toBe(firstExpiry + 30_000);
    while (clock.now() + 30_000 <= firstExpiry) {
      clock.advance(30_000);
      await c.request({ op: 'ping' });
    }
    clock.advance(firstExpiry + 1 - clock.now());
    // Past the first token's expiry: still open, and the only warning was for the new token.
    expect(await c.request({ op: 'ping' })).toMatchObject({ op: 'pong' });
    expect(c.frames.filter((f) => f.op === 'auth_expired').map((f) => f.expires_at)).toEqual([
      firstExpiry + 30_000,
    ]);
    await c.close();
  });

  it('a token with under 60 s left gets auth_expired right after the login reply', async () => {
    const { token: t } = await v.newAccount();
    clock.advance(3_600_000 - 30_000);
    const c = await StreamClient.connect(v);
    const reply = await c.request({ op: 'login', token: t });
    const warning = await c.find((f) => f.op === 'auth_expired');
    expect(warning.seq).toBe(reply.seq + 1);
    expect(warning.expires_at).toBe(reply.result.expires_at);
    await c.close();
  });
});
