/**
 * `modifyOrder`: one signed `PUT /orders/{id}` (cancel and replacement) backed by the old order's
 * note; the old order ends `cancelled` unless repriced in place. An order the wallet does not track
 * is 1301; one no longer resting, before or during the swap, is `OrderNotModifiableError`.
 */
import {
  encodeCancelBody,
  modifyCancelFields,
  requiredCollateral,
  verifyCanonical,
} from '@nightjar/protocol';
import {
  FAKE_MARKET,
  FAKE_USDC,
  fakeClient,
  giveNote,
  type FakeRoutes,
  refusing,
  orderStatusBody,
} from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { placeOrder } from './place-order.js';
import { modifyOrder } from './modify-order.js';

const OLD = 'e0'.repeat(16);
const NEW = 'e1'.repeat(16);
const BID = { side: 'bid', amount: '1', price: '150' } as const;
const NEED = requiredCollateral('bid', 1_000_000_000n, 150_000_000n, FAKE_MARKET);

/** The venue's answer to a swap: the replacement booked. */
const swapped: FakeRoutes = {
  'PUT /orders/:id': ({ params, body }) => ({
    order_id: (body as { replacement: { order_id: string } }).replacement.order_id,
    status: 'accepted',
    arrival_slot: 1002,
    replaced_order_id: params.id,
  }),
};

/** A client with a resting 1 SOL bid at 150 (`OLD`), and `routes`. */
async function resting(routes: FakeRoutes = swapped) {
  const fake = fakeClient({ routes });
  const note = giveNote(fake.wallet, FAKE_USDC, NEED, 0);
  await placeOrder(fake.client, { symbol: 'SOL-USDC', ...BID, orderId: OLD });
  return { ...fake, note };
}

describe('modifyOrder', () => {
  it('replaces the order on its own note with a signed cancel; the old one ends cancelled', async () => {
    const { client, requests, wallet, note } = await resting();
    const r = await modifyOrder(client, { orderId: OLD, newOrderId: NEW, ...BID, price: '149' });
    expect(r).toMatchObject({
      orderId: NEW,
      status: 'accepted',
      arrivalSlot: 1002n,
      noteCommitment: note.commitment,
    });
    expect(r.body.price_limit).toBe(149_000_000n);
    expect(wallet.orders.get(OLD)?.status).toBe('cancelled');
    expect(wallet.orders.get(NEW)).toMatchObject({ status: 'pending', noteCommitment: note.commitment });
    expect(wallet.reserved.size).toBe(0);

    const put = requests.find((q) => q.method === 'PUT')!;
    expect(put.path).toBe(`/orders/${OLD}`);
    const sent = put.body as { cancel_signature: string; cancel_nonce: string };
    const fields = modifyCancelFields(OLD, BigInt(sent.cancel_nonce), r.body);
    expect(
      verifyCanonical(wallet.keys.trading.publicKey, encodeCancelBody(fields), sent.cancel_signature),
    ).toBe(true);
  });

  it('the same id reprices in place: the order stays open', async () => {
    const { client, wallet } = await resting();
    await modifyOrder(client, { orderId: OLD, newOrderId: OLD, ...BID, price: '148' });
    expect(wallet.orders.get(OLD)?.status).toBe('pending');
    expect(wallet.orders.size).toBe(1);
  });

  it('an order the wallet does not track: NotFound (1301); one not resting: OrderNotModifiableError', async () => {
    const { client, wallet, requests } = await resting();
    const unknown = await modifyOrder(client, { orderId: NEW, ...BID }).catch((e: unknown) => e);
    expect(isNightjarError(unknown, 1301)).toBe(true);
    wallet.updateOrder(wallet.orders.get(OLD)!, (o) => (o.status = 'expired'));
    await expect(modifyOrder(client, { orderId: OLD, ...BID })).rejects.toMatchObject({
      codeName: 'ORDER_NOT_MODIFIABLE',
      message: `order ${OLD} is expired: it cannot be modified`,
      fix: 'Place a new order instead.',
    });
    expect(requests.some((q) => q.method === 'PUT')).toBe(false);
  });

  it('the order left the book during the swap: re-read from the venue, OrderNotModifiableError', async () => {
    const { client, wallet } = await resting({
      'PUT /orders/:id': refusing(1301, 404, 'order not found'),
      'GET /orders/:id': ({ params }) =>
        orderStatusBody({ order_id: params.id, status: 'cancelled', expiry_slot: 2000, arrival_slot: 1001 }),
    });
    await expect(modifyOrder(client, { orderId: OLD, ...BID, price: '149' })).rejects.toMatchObject({
      codeName: 'ORDER_NOT_MODIFIABLE',
      context: { status: 'cancelled' },
    });
    expect(wallet.orders.get(OLD)?.status).toBe('cancelled');
    expect(wallet.reserved.size).toBe(0);
  });
});
