/** `getOpenOrders`: the account's live orders from `GET /account/orders`; refusals stay typed. */
import { fakeClient, refusing, orderStatusBody } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { getOpenOrders } from './get-open-orders.js';

/** A live ask at 151 as the venue lists it. */
const live = (id: string, status: string) =>
  orderStatusBody({ order_id: id, side: 'ask', status, price_limit: 151_000_000 });

describe('getOpenOrders', () => {
  it('lists the resting and settling orders with the account’s bearer', async () => {
    const body = [live('01'.repeat(16), 'pending'), live('02'.repeat(16), 'pending_settlement')];
    const { client, requests } = fakeClient({ routes: { 'GET /account/orders': () => body } });
    const open = await getOpenOrders(client);
    expect(open.map((o) => [o.order_id, o.status, o.price_limit])).toEqual([
      ['01'.repeat(16), 'pending', 151_000_000n],
      ['02'.repeat(16), 'pending_settlement', 151_000_000n],
    ]);
    expect(requests).toMatchObject([{ path: '/account/orders', auth: true }]);
  });

  it('none: an empty list; a suspended account: 1150', async () => {
    expect(await getOpenOrders(fakeClient({ routes: { 'GET /account/orders': () => [] } }).client)).toEqual(
      [],
    );
    const suspended = fakeClient({
      routes: {
        'GET /account/orders': refusing(1150, 403, 'account suspended'),
      },
    });
    const err = await getOpenOrders(suspended.client).catch((e: unknown) => e);
    expect(isNightjarError(err, 1150)).toBe(true);
  });
});
