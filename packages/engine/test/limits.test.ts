import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, startTestVenue, USDC, type Note, type TestVenue, type Trader } from '@nightjar/testkit';

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

describe('the rate limit is the front door: no verification work for a caller over its limit', () => {
  let v: TestVenue;
  let token: string;
  let trader: Trader;
  let note: Note;
  let proofChecks = 0;
  // The clock stands still, so the bucket (capacity 40, place weight 1.0) never refills mid-test.
  const frozen = Date.now();

  beforeAll(async () => {
    v = await startTestVenue({
      now: () => frozen,
      verifyInputProof: async () => {
        proofChecks++;
        return false;
      },
    });
    trader = v.trader();
    note = await trader.deposit(USDC, 1_000_000_000n);
  });
  afterAll(async () => {
    await v.close();
  });

  it('100 concurrent bad-signature places: 40 answer 403 1102, the other 60 answer 429 1401 with Retry-After', async () => {
    ({ token } = await v.newAccount());
    const bodies = Array.from({ length: 100 }, () =>
      trader.order(note, { trading_key_signature: '00'.repeat(64) }),
    );
    const answers = await Promise.all(bodies.map((body) => v.client.send('/orders', { token, body })));
    const forbidden = answers.filter((a) => a.status === 403);
    const limited = answers.filter((a) => a.status === 429);
    expect(forbidden.length + limited.length).toBe(100);
    expect(forbidden.every((a) => a.body.code === 1102)).toBe(true);
    expect(forbidden).toHaveLength(40);
    expect(limited.every((a) => a.body.code === 1401 && Number(a.headers['retry-after']) >= 1)).toBe(true);
  });

  it('100 concurrent places with bad proofs: only the 40 admitted ones reach the proof verifier', async () => {
    ({ token } = await v.newAccount());
    proofChecks = 0;
    const bodies = Array.from({ length: 100 }, () => trader.order(note));
    const answers = await Promise.all(bodies.map((body) => v.client.send('/orders', { token, body })));
    expect(answers.filter((a) => a.body.code === 1011)).toHaveLength(40);
    expect(answers.filter((a) => a.body.code === 1401)).toHaveLength(60);
    expect(proofChecks).toBe(40);
  });

  it('cancel, modify and order reads are charged at the door too, by their weights', async () => {
    ({ token } = await v.newAccount());
    const id = '0'.repeat(31) + '1';
    // 40 / 0.1 = 400 reads fit; the 401st is refused before the order id is even looked at.
    for (let i = 0; i < 400; i++) {
      const r = await v.client.send(`/orders/${id}`, { token });
      expect(r.body.code).toBe(1301);
    }
    const refused = await v.client.send(`/orders/not-hex`, { token });
    expect([refused.status, refused.body.code]).toEqual([429, 1401]);
    for (const method of ['DELETE', 'PUT'] as const) {
      const r = await v.client.send(`/orders/${id}`, { method, token, body: { garbage: true } });
      expect([r.status, r.body.code]).toEqual([429, 1401]);
    }
    expect((await v.client.send('/account/orders', { token })).body.code).toBe(1401);
  });
});
