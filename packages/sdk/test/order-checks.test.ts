/**
 * Order rules the SDK checks itself before any note is prepared or proof made (issue 20, item 8):
 * the minimum size, a bid's price, the tick, the minimum fill and the expiry bounds. Each fails
 * with a PARAMETER in human units that names the fix, with nothing sent: the wallet is empty,
 * so any attempt to prepare a note would fail differently (INSUFFICIENT_NOTES).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder, placeOrders, type PlaceOrderParameters } from '../src/index.js';
import { newParty, type Party } from '@nightjar/testkit';
import { startTestVenue, type TestVenue } from './helpers.js';
import { PARAMETER_CODES, isNightjarError } from '../src/index.js';

let v: TestVenue;
let a: Party;

beforeAll(async () => {
  v = await startTestVenue();
  a = await newParty(v);
}, 60_000);
afterAll(async () => {
  await a?.client.close();
  await v?.close();
});

const bid: PlaceOrderParameters = { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '150' };

/** The PARAMETER `placeOrder` throws for `order`, and that nothing was tracked or reserved. */
async function refused(order: PlaceOrderParameters): Promise<string> {
  const err = await placeOrder(a.client, order).catch((e: unknown) => e);
  expect(isNightjarError(err, PARAMETER_CODES)).toBe(true);
  expect(a.client.wallet.orders.size).toBe(0);
  expect(a.client.wallet.reserved.size).toBe(0);
  return (err as Error).message;
}

describe('order rules checked before the proof', () => {
  it('below the minimum order size', async () => {
    const inst = await a.client.instrument('SOL-USDC');
    expect(inst.min_order_size).toBeGreaterThan(1n);
    expect(await refused({ ...bid, amount: 1n })).toMatch(
      /below SOL-USDC's minimum order size .* SOL: order at least that/,
    );
  });

  it('a bid without a price', async () => {
    const { price: _omit, ...noPrice } = bid;
    expect(await refused(noPrice)).toContain('a bid needs a price above 0');
  });

  it('a price off the tick names the two nearest prices', async () => {
    const inst = await a.client.instrument('SOL-USDC');
    expect(inst.tick_size).toBeGreaterThan(1n);
    expect(await refused({ ...bid, price: inst.tick_size * 1000n + 1n })).toMatch(
      /^price [0-9.]+ USDC per SOL is not a multiple of SOL-USDC's tick [0-9.]+ USDC: use [0-9.]+ or [0-9.]+$/,
    );
  });

  it('a minimum fill above the amount', async () => {
    expect(await refused({ ...bid, minFillSize: '2' })).toContain(
      'minFillSize 2 SOL exceeds the amount 1 SOL',
    );
  });

  it('an expiry within the settlement buffer or past the maximum lifetime', async () => {
    expect(await refused({ ...bid, expiry: { slots: 20 } })).toContain('expiry is too soon');
    expect(await refused({ ...bid, expiry: { seconds: 1 } })).toContain(
      'settlement buffer of 8 s (20 slots of 400 ms): give `expiry: { seconds: 9 }` or more',
    );
    expect(await refused({ ...bid, expiry: { slots: 4501 } })).toContain(
      'at most 30 min (4500 slots of 400 ms): give `expiry: { seconds: 1800 }` or less',
    );
    // (A wall-clock `at` is checked once the venue's clock is read, after the note.)
  });

  it('placeOrders reports each bad order as its failure and prepares nothing for it', async () => {
    const { results, splits } = await placeOrders(a.client, { orders: [{ ...bid, amount: 1n }] });
    expect(splits).toEqual([]);
    expect(results[0]?.status).toBe('failure');
    expect(isNightjarError(results[0]?.status === 'failure' && results[0].error, PARAMETER_CODES)).toBe(true);
  });
});
