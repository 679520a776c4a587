import { cancelResponseCodec } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { withSendLock } from '../core/utils/send-lock.js';
import { orderEngine } from '../orders/order-engine.js';
import { signCancel } from '../orders/sign-cancel.js';
import type { NightjarError } from '../core/errors/index.js';

/** The order to cancel. */
export interface CancelOrderParameters {
  orderId: string;
  /**
   * The order's market, which names its engine; by default the one the wallet recorded, and for an
   * order the wallet does not track each engine is asked.
   */
  symbol?: string;
}

/** The venue's cancel result. */
export interface CancelOrderReturnType {
  orderId: string;
  status: 'cancelled';
}

/** What `cancelOrder` throws: NOT_FOUND (1301) (the order already left the book) or another typed error. */
export type CancelOrderErrorType = NightjarError;

/**
 * Cancels a resting order (`DELETE /orders/{id}`) at its market's engine. A NOT_FOUND (1301) means the order already left
 * the book (filled, expired or cancelled).
 *
 * @example
 * await cancelOrder(client, { orderId });
 */
export async function cancelOrder(
  client: Client,
  params: CancelOrderParameters,
): Promise<CancelOrderReturnType> {
  const engine = await orderEngine(client, params.orderId, params.symbol);
  const r = await withSendLock(client, async () =>
    engine.request(`/orders/${params.orderId}`, {
      method: 'DELETE',
      body: await signCancel(client, params.orderId, engine),
      codec: cancelResponseCodec,
    }),
  );
  const tracked = client.wallet.orders.get(params.orderId);
  if (tracked) {
    client.wallet.updateOrder(tracked, (o) => (o.status = 'cancelled'));
    client.wallet.save();
  }
  return { orderId: r.order_id, status: r.status };
}
