import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, startTestVenue, USDC, type Note, type TestVenue, type Trader } from './harness.js';

describe('order rate limit and trading pauses', () => {
  let v: TestVenue;
  let token: string;
  let trader: Trader;
  let notes: Note[];
  let now = Date.now();

  beforeAll(async () => {
    v = await startTestVenue({ now: () => now, orderRateLimit: { capacity: 3, refillPerSecond: 1 } });
    ({ token } = await v.newAccount());
    trader = v.trader();
    notes = [];
    for (let i = 0; i < 5; i++) notes.push(await trader.deposit(USDC, 1_000_000_000n + BigInt(i)));
  });
  afterAll(async () => {
    await v.close();
  });

  it('429 1401 with Retry-After once the account’s bucket is empty; refills with time', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await v.client.send('/orders', { token, body: trader.order(notes[i]!) })).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    const limited = await v.client.send('/orders', { token, body: trader.order(notes[3]!) });
    expect(limited.body.code).toBe(1401);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another account has its own bucket.
    const other = await v.newAccount();
    expect(
      (await v.client.send('/orders', { token: other.token, body: v.trader().order(notes[4]!, {}) })).status,
    ).not.toBe(429);
    now += 2000;
    expect((await v.client.send('/orders', { token, body: trader.order(notes[3]!) })).status).toBe(202);
  });

  it('a drain pauses new trading with 503 5001 until it is cancelled; non-admins may not drain', async () => {
    const adminToken = await login(v.client, v.admin);
    expect((await v.client.send('/admin/drain', { method: 'POST', token })).body.code).toBe(1150);
    const started = await v.client.send('/admin/drain', { method: 'POST', token: adminToken });
    expect(started.body).toMatchObject({ state: 'draining' });
    const refused = await v.client.send('/orders', { token, body: trader.order(notes[4]!) });
    expect([refused.status, refused.body.code]).toEqual([503, 5001]);
    expect((await v.client.send('/system/status')).body).toMatchObject({ trading: 'paused', draining: true });
    now += 5000;
    await v.client.send('/admin/drain', { method: 'DELETE', token: adminToken });
    expect((await v.client.send('/system/status')).body.trading).toBe('open');
  });

  it('an unreachable ledger pauses new trading with 503 5001 and reports it; it resumes when the ledger answers', async () => {
    await v.ledger.setFaults({ outage: true });
    await v.engine.context.chain.poll();
    expect((await v.client.send('/system/status')).body).toMatchObject({
      ledger: 'unavailable',
      trading: 'paused',
    });
    const refused = await v.client.send('/orders', { token, body: trader.order(notes[4]!) });
    expect([refused.status, refused.body.code]).toEqual([503, 5001]);
    await v.ledger.setFaults({ outage: false });
    await v.engine.context.chain.poll();
    expect((await v.client.send('/system/status')).body).toMatchObject({
      ledger: 'connected',
      trading: 'open',
    });
  });
});
