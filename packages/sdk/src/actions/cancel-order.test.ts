/**
 * `cancelOrder`: `DELETE /orders/{id}` signed with the trading key and a fresh cancel nonce; the
 * wallet's copy of the order ends `cancelled`; an order that left the book is 1301.
 */
import { encodeCancelBody, verifyCanonical } from '@nightjar/protocol';
import { FAKE_SOL, FAKE_USDC, fakeClient, type FakeRequest, refusing } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { cancelOrder } from './cancel-order.js';

const ORDER_ID = 'c1'.repeat(16);
const cancelled = ({ params }: FakeRequest) => ({ order_id: params.id, status: 'cancelled' });

describe('cancelOrder', () => {
  it('signs the cancel, ends the tracked order cancelled and takes a new nonce each time', async () => {
    const { client, requests, wallet } = fakeClient({ routes: { 'DELETE /orders/:id': cancelled } });
    wallet.trackOrder({
      orderId: ORDER_ID,
      symbol: 'SOL-USDC',
      side: 'bid',
      noteCommitment: '0d'.repeat(32),
      status: 'pending',
      baseMint: FAKE_SOL,
      quoteMint: FAKE_USDC,
      filledQuantity: 0n,
    });
    expect(await cancelOrder(client, { orderId: ORDER_ID })).toEqual({
      orderId: ORDER_ID,
      status: 'cancelled',
    });
    expect(wallet.orders.get(ORDER_ID)?.status).toBe('cancelled');

    await cancelOrder(client, { orderId: ORDER_ID }); // the venue's word; the wallet keeps its copy
    const [first, second] = requests.map((r) => r.body as Record<string, string>);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /orders/${ORDER_ID}`,
      `DELETE /orders/${ORDER_ID}`,
    ]);
    expect(BigInt(second!.cancel_nonce!)).toBeGreaterThan(BigInt(first!.cancel_nonce!));
    const signed = encodeCancelBody({
      order_id: ORDER_ID,
      trading_key: wallet.keys.trading.publicKey,
      cancel_nonce: BigInt(first!.cancel_nonce!),
      session_id: first!.session_id!,
    });
    expect(verifyCanonical(wallet.keys.trading.publicKey, signed, first!.trading_key_signature!)).toBe(true);
  });

  it('an order that already left the book: NotFound (1301); an untracked order is only the venue’s', async () => {
    const { client, wallet } = fakeClient({
      routes: {
        'DELETE /orders/:id': refusing(1301, 404, 'order not found'),
      },
    });
    const err = await cancelOrder(client, { orderId: ORDER_ID }).catch((e: unknown) => e);
    expect(isNightjarError(err, 1301)).toBe(true);
    expect(wallet.orders.size).toBe(0);
  });
});
