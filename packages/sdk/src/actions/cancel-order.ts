import { cancelResponseCodec, encodeCancelBody, signCanonical } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { withSendLock } from '../utils/send-lock.js';

/** The order to cancel. */
export interface CancelOrderParameters {
  orderId: string;
}

/** The venue's cancel result. */
export interface CancelOrderReturnType {
  orderId: string;
  status: 'cancelled';
}

/** Signs a cancel for `orderId` with a fresh durable `cancel_nonce`. */
export async function signCancel(client: Client, orderId: string) {
  const trading = client.wallet.keys.trading;
  const session = await client.bootSessionId();
  const nonce = client.nonces.next(trading.publicKey, 'cancel');
  const signature = signCanonical(
    trading.seed,
    encodeCancelBody({
      order_id: orderId,
      trading_key: trading.publicKey,
      cancel_nonce: nonce,
      session_id: session,
    }),
  );
  return {
    trading_key: trading.publicKey,
    cancel_nonce: nonce.toString(),
    session_id: session,
    trading_key_signature: signature,
  };
}

/**
 * Cancels a resting order (`DELETE /orders/{id}`). A `NotFoundError` means the order already left
 * the book (filled, expired or cancelled).
 *
 * @example
 * await cancelOrder(client, { orderId });
 */
export async function cancelOrder(
  client: Client,
  params: CancelOrderParameters,
): Promise<CancelOrderReturnType> {
  const r = await withSendLock(client, async () =>
    client.request(`/orders/${params.orderId}`, {
      method: 'DELETE',
      body: await signCancel(client, params.orderId),
      codec: cancelResponseCodec,
    }),
  );
  const tracked = client.wallet.orders.get(params.orderId);
  if (tracked) {
    tracked.status = 'cancelled';
    client.wallet.save();
  }
  return { orderId: r.order_id, status: r.status };
}
