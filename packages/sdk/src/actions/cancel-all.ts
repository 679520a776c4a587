import type { Client } from '../client.js';
import { isNightjarError, type NightjarError } from '../core/errors/index.js';
import { cancelOrder } from './cancel-order.js';
import { getOpenOrders } from './get-open-orders.js';

/** Which live orders to cancel: all of the account's, or one market's. */
export interface CancelAllParameters {
  /** Only this market's orders (e.g. `'SOL-USDC'`); every market when omitted. */
  symbol?: string;
}

/** One cancel the venue refused: its typed error, and that error's code and message. */
export interface CancelAllFailure {
  orderId: string;
  /** The SDK's numeric code (`error.codeName` is its stable name). */
  code: number;
  message: string;
  error: NightjarError;
}

/** The order ids cancelled, and the ones whose cancel failed with why. */
export interface CancelAllReturnType {
  cancelled: string[];
  failed: CancelAllFailure[];
}

/** What `cancelAll` throws: listing the orders failed (`GET /account/orders`). One cancel's refusal is in `failed`. */
export type CancelAllErrorType = NightjarError;

/**
 * Cancels every live order of the account: the venue's list (`GET /account/orders`), not only the
 * wallet's tracked orders, so orders placed by another program on the same account go too. Each
 * cancel is its own signed `DELETE /orders/{id}`; one refusal (say 1301: it filled meanwhile) does
 * not stop the others.
 *
 * @example
 * const { cancelled, failed } = await cancelAll(client, { symbol: 'SOL-USDC' });
 */
export async function cancelAll(
  client: Client,
  params: CancelAllParameters = {},
): Promise<CancelAllReturnType> {
  const live = await getOpenOrders(client);
  const result: CancelAllReturnType = { cancelled: [], failed: [] };
  for (const order of live) {
    if (params.symbol !== undefined && order.symbol !== params.symbol) continue;
    try {
      await cancelOrder(client, { orderId: order.order_id });
      result.cancelled.push(order.order_id);
    } catch (err) {
      // A typed refusal is this order's answer; anything else is a bug and stops the loop.
      if (!isNightjarError(err)) throw err;
      result.failed.push({ orderId: order.order_id, code: err.code, message: err.message, error: err });
    }
  }
  return result;
}
