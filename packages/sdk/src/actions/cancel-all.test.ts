/**
 * `cancelAll`: every live order the venue lists for the account (not only the wallet's), one
 * market's with `symbol`; one refused cancel is reported and does not stop the others.
 */
import { fakeClient, orderStatusBody, refusing, type FakeRequest } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { cancelAll } from './cancel-all.js';

const SOL_BID = '01'.repeat(16);
const SOL_ASK = '02'.repeat(16);
const ETH_BID = '03'.repeat(16);
const live = [
  orderStatusBody({ order_id: SOL_BID }),
  orderStatusBody({ order_id: SOL_ASK, side: 'ask' }),
  orderStatusBody({ order_id: ETH_BID, symbol: 'ETH-USDC' }),
];
const cancelled = ({ params }: FakeRequest) => ({ order_id: params.id, status: 'cancelled' });
const deleted = (requests: FakeRequest[]) =>
  requests.filter((r) => r.method === 'DELETE').map((r) => r.params.id);

describe('cancelAll', () => {
  it('cancels every order the venue lists, untracked ones too', async () => {
    const { client, requests, wallet } = fakeClient({
      routes: { 'GET /account/orders': () => live, 'DELETE /orders/:id': cancelled },
    });
    expect(wallet.orders.size).toBe(0);
    expect(await cancelAll(client)).toEqual({
      cancelled: [SOL_BID, SOL_ASK, ETH_BID],
      failed: [],
      unreachable: [],
    });
    expect(deleted(requests)).toEqual([SOL_BID, SOL_ASK, ETH_BID]);
  });

  it('with a symbol: only that market’s orders', async () => {
    const { client, requests } = fakeClient({
      routes: { 'GET /account/orders': () => live, 'DELETE /orders/:id': cancelled },
    });
    expect(await cancelAll(client, { symbol: 'ETH-USDC' })).toEqual({
      cancelled: [ETH_BID],
      failed: [],
      unreachable: [],
    });
    expect(deleted(requests)).toEqual([ETH_BID]);
  });

  it('a refused cancel is listed with its code and message; the rest still go', async () => {
    const gone = refusing(1301, 404, 'order not found');
    const { client } = fakeClient({
      routes: {
        'GET /account/orders': () => live,
        'DELETE /orders/:id': (req) => (req.params.id === SOL_ASK ? gone(req) : cancelled(req)),
      },
    });
    const result = await cancelAll(client);
    expect(result.cancelled).toEqual([SOL_BID, ETH_BID]);
    expect(result.failed).toEqual([
      { orderId: SOL_ASK, code: 1301, message: expect.any(String), error: expect.any(Error) },
    ]);
    expect(isNightjarError(result.failed[0]!.error, 1301)).toBe(true);
    expect(result.failed[0]!.message.length).toBeGreaterThan(0);
  });

  it('no live orders: nothing sent; the list refused: the typed error', async () => {
    const empty = fakeClient({ routes: { 'GET /account/orders': () => [] } });
    expect(await cancelAll(empty.client)).toEqual({ cancelled: [], failed: [], unreachable: [] });
    expect(deleted(empty.requests)).toEqual([]);
    const suspended = fakeClient({
      routes: { 'GET /account/orders': refusing(1150, 403, 'account suspended') },
    });
    expect(isNightjarError(await cancelAll(suspended.client).catch((e: unknown) => e), 1150)).toBe(true);
  });
});
