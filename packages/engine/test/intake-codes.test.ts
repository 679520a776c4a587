import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Trader, login, startTestVenue, USDC, type Note, type TestVenue } from '@nightjar/testkit';

/** Every intake check of the spec's table, seen over HTTPS with its status and code. */
describe('place-order intake codes over HTTPS', () => {
  let v: TestVenue;
  let token: string;
  let trader: Trader;
  let rich: Note;
  let poor: Note;

  beforeAll(async () => {
    v = await startTestVenue({ orderRateLimit: { capacity: 1000, refillPerSecond: 1000 } });
    ({ token } = await v.newAccount());
    trader = v.trader();
    rich = await trader.deposit(USDC, 10n ** 12n);
    poor = await trader.deposit(USDC, 1000n);
  });
  afterAll(async () => {
    await v.close();
  });

  const slot = () => BigInt(v.engine.context.chain.slot);
  const cases: [string, () => object, number, number][] = [
    ['1001 zero order_id', () => trader.order(rich, { order_id: '0'.repeat(32) }), 400, 1001],
    ['1001 unknown field', () => ({ ...trader.order(rich), colour: 'red' }), 400, 1001],
    ['1004 amount below the market minimum', () => trader.order(rich, { amount: 999_999n }), 400, 1004],
    ['1005 bid with price 0', () => trader.order(rich, { price_limit: 0n }), 400, 1005],
    [
      '1006 opening does not re-derive the commitment',
      () => trader.order(rich, { note_inner_hash: '0a'.repeat(32) }),
      400,
      1006,
    ],
    ['1003 collateral below nominal plus fee', () => trader.order(poor), 400, 1003],
    ['1009 price off the tick', () => trader.order(rich, { price_limit: 150_000_001n }), 400, 1009],
    [
      '1102 signature over another body',
      () => ({ ...trader.order(rich), amount: 2_000_000_000n }),
      403,
      1102,
    ],
    ['1008 low-order viewing key', () => trader.order(rich, { viewing_pubkey: '00'.repeat(32) }), 400, 1008],
    ['1007 expiry beyond the lifetime', () => trader.order(rich, { expiry_slot: slot() + 4501n }), 400, 1007],
    [
      '1012 expiry inside the settlement buffer',
      () => trader.order(rich, { expiry_slot: slot() + 20n }),
      400,
      1012,
    ],
    ['1010 root outside the window', () => trader.order(rich, { merkle_root: '02'.repeat(32) }), 400, 1010],
    [
      '1011 proof does not verify',
      () => trader.order(rich, { valid_input_proof: 'ee'.repeat(256) }),
      400,
      1011,
    ],
    ['1205 another boot session', () => trader.order(rich, { session_id: '12'.repeat(32) }), 409, 1205],
  ];

  it.each(cases)('%s', async (_name, body, status, code) => {
    const r = await v.client.send('/orders', { token, body: body() });
    expect([r.status, r.body.code]).toEqual([status, code]);
    expect(typeof r.body.message).toBe('string');
    expect(r.headers['x-request-id']).toBeDefined();
  });

  it('suspension answers 403 1150 on order routes at once', async () => {
    const adminToken = await login(v.client, v.admin);
    const created = await v.client.send('/admin/accounts', { method: 'POST', token: adminToken, body: {} });
    const t = await login(v.client, created.body);
    expect((await v.client.send('/account/orders', { token: t })).status).toBe(200);
    await v.client.send(`/admin/accounts/${created.body.api_key}/disable`, {
      method: 'POST',
      token: adminToken,
    });
    const r = await v.client.send('/orders', { token: t, body: trader.order(rich) });
    expect([r.status, r.body.code]).toEqual([403, 1150]);
    expect((await v.client.send('/account/orders', { token: t })).body.code).toBe(1150);
  });
});
