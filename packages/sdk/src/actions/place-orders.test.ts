/**
 * `placeOrders`: a ladder proved together and sent in the order given (nonces increasing); one
 * order's failure is its own result, never a throw, and what was placed stays placed.
 */
import { requiredCollateral } from '@nightjar/protocol';
import { FAKE_MARKET, FAKE_USDC, fakeClient, giveNote } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError, venueError } from '../core/errors/index.js';
import { placeOrders, type PlaceOrdersProgress } from './place-orders.js';

/** A 1 SOL bid at `price` and its collateral. */
const bid = (price: string) => ({ symbol: 'SOL-USDC', side: 'bid', amount: '1', price }) as const;
const need = (price: number) =>
  requiredCollateral('bid', 1_000_000_000n, BigInt(price) * 1_000_000n, FAKE_MARKET);

describe('placeOrders', () => {
  it('places each order on its exact note, in the order given, with increasing nonces', async () => {
    const { client, requests, wallet } = fakeClient();
    [149, 148, 147].forEach((p, i) => giveNote(wallet, FAKE_USDC, need(p), i));
    const progress: PlaceOrdersProgress[] = [];
    const { results, splits } = await placeOrders(client, {
      orders: [bid('149'), bid('148'), bid('147')],
      onProgress: (p) => progress.push(p),
    });
    expect(splits).toEqual([]);
    expect(results.map((r) => r.status)).toEqual(['success', 'success', 'success']);
    const posted = requests.filter((r) => r.method === 'POST').map((r) => r.body as Record<string, bigint>);
    expect(posted.map((b) => b.price_limit)).toEqual([149_000_000n, 148_000_000n, 147_000_000n]);
    const nonces = posted.map((b) => BigInt(b.arrival_nonce!));
    expect([...nonces].sort((x, y) => (x < y ? -1 : 1))).toEqual(nonces);
    expect(progress.map((p) => p.stage)).toEqual(['placed', 'placed', 'placed']);
    expect(wallet.orders.size).toBe(3);
    expect(wallet.reserved.size).toBe(0);
  });

  it('a bad order and a venue refusal are per-order failures; the others are placed', async () => {
    let posts = 0;
    const { client, wallet } = fakeClient({
      routes: {
        'POST /orders': ({ body }) => {
          if (++posts === 2) throw venueError(1202, 409, 'duplicate order id');
          return {
            order_id: (body as { order_id: string }).order_id,
            status: 'accepted',
            arrival_slot: 1001,
          };
        },
      },
    });
    [149, 147, 146].forEach((p, i) => giveNote(wallet, FAKE_USDC, need(p), i));
    const failed: number[] = [];
    const { results } = await placeOrders(client, {
      orders: [bid('149'), bid('148.0005'), bid('147'), bid('146')],
      onProgress: (p) => p.stage === 'failed' && failed.push(p.index),
    });
    expect(results.map((r) => r.status)).toEqual(['success', 'failure', 'failure', 'success']);
    const [, offTick, refused] = results;
    expect(offTick).toMatchObject({ error: { message: expect.stringContaining('is not a multiple of') } });
    expect(refused?.status === 'failure' && isNightjarError(refused.error, 1202)).toBe(true);
    expect(failed.sort()).toEqual([1, 2]);
    expect([...wallet.orders.values()].map((o) => o.status)).toEqual(['pending', 'pending']);
    expect(wallet.reserved.size).toBe(0);
  });
});
