import { describe, expect, it } from 'vitest';
import type { OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { TrackedOrder } from '../wallet/types.js';
import { getOpenOrders } from './get-open-orders.js';
import { getOrder } from './get-order.js';

const ID = 'ab'.repeat(16);
const body = (status: OrderStatusResponse['status'], filled: bigint): OrderStatusResponse =>
  ({
    order_id: ID,
    symbol: 'SOL-USDC',
    side: 'bid',
    order_type: 'limit',
    status,
    amount: 10n,
    filled_quantity: filled,
  }) as OrderStatusResponse;

/** A client whose venue answers `answer` and whose wallet tracks `tracked` (if any). */
function standIn(answer: unknown, tracked?: Partial<TrackedOrder>): Client {
  const orders = new Map<string, TrackedOrder>();
  if (tracked)
    orders.set(ID, { orderId: ID, status: 'pending', filledQuantity: 0n, ...tracked } as TrackedOrder);
  const client = {
    request: async () => answer,
    hasWallet: tracked !== undefined,
    get wallet() {
      if (!tracked) throw new Error('no wallet');
      return { orders };
    },
    engineFor: async () => client,
    engines: async () => [{ baseUrl: 'https://venue.test', session: client }],
  } as unknown as Client;
  return client;
}

describe('getOrder and getOpenOrders in the one vocabulary', () => {
  it('say fully_filled where the venue says empty for a filled order, with or without a wallet', async () => {
    expect((await getOrder(standIn(body('empty', 10n)), { orderId: ID })).state).toBe('fully_filled');
    const r = await getOrder(standIn(body('empty', 10n), {}), { orderId: ID });
    expect(r).toMatchObject({ status: 'empty', state: 'fully_filled', filled_quantity: 10n });
  });

  it('say what the wallet knows of an order it tracks (a failed settlement stays failed)', async () => {
    const r = await getOrder(standIn(body('empty', 10n), { status: 'settlement_failed' }), { orderId: ID });
    expect(r.state).toBe('settlement_failed');
  });

  it('call a resting order with a fill partially_filled, in base units as the wallet', async () => {
    const [o] = await getOpenOrders(standIn([body('pending', 4n)], {}));
    expect(o).toMatchObject({ status: 'pending', state: 'partially_filled', filled_quantity: 4n });
  });
});
