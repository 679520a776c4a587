/** `getOrder`: one order's status from `GET /orders/{id}`; an unknown id is 1301. */
import { fakeClient, refusing, orderStatusBody } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { getOrder } from './get-order.js';

const ORDER_ID = 'aa'.repeat(16);

/** The venue's status body of `ORDER_ID`: 2 SOL, half filled. */
const STATUS = orderStatusBody({ order_id: ORDER_ID, amount: 2_000_000_000, filled_quantity: 1_000_000_000 });

describe('getOrder', () => {
  it('reads the order’s status and cumulative fill, authenticated', async () => {
    const { client, requests } = fakeClient({ routes: { 'GET /orders/:id': () => STATUS } });
    const order = await getOrder(client, { orderId: ORDER_ID });
    expect(order).toMatchObject({
      status: 'pending',
      amount: 2_000_000_000n,
      filled_quantity: 1_000_000_000n,
    });
    expect(requests).toMatchObject([{ path: `/orders/${ORDER_ID}`, params: { id: ORDER_ID }, auth: true }]);
  });

  it('an unknown, foreign or aged-out id: NotFound (1301)', async () => {
    const { client } = fakeClient({
      routes: {
        'GET /orders/:id': refusing(1301, 404, 'order not found'),
      },
    });
    const err = await getOrder(client, { orderId: ORDER_ID }).catch((e: unknown) => e);
    expect(isNightjarError(err, 1301)).toBe(true);
  });
});
