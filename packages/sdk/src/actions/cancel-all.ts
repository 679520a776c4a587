import type { Client } from '../client.js';
import { isNightjarError, type NightjarError } from '../core/errors/index.js';
import { cancelOrder } from './cancel-order.js';
import { openOrdersByEngine } from '../orders/engine-orders.js';

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

/** An engine whose orders could not be listed (unreachable, or it failed verification). */
export interface CancelAllUnreachable {
  baseUrl: string;
  code: number;
  message: string;
  error: NightjarError;
}

/** The order ids cancelled, the ones whose cancel failed with why, and the engines not reached. */
export interface CancelAllReturnType {
  cancelled: string[];
  failed: CancelAllFailure[];
  /** Engines whose live orders could not be listed: their orders are still live. */
  unreachable: CancelAllUnreachable[];
}

/** What `cancelAll` throws: listing the orders failed (`GET /account/orders`). One cancel's refusal is in `failed`. */
export type CancelAllErrorType = NightjarError;

/**
 * Cancels every live order of the account: each engine's list (`GET /account/orders`), not only the
 * wallet's tracked orders, so orders placed by another program on the same account go too. Each
 * cancel is its own signed `DELETE /orders/{id}`; one refusal (say 1301: it filled meanwhile) does
 * not stop the others, and an engine that cannot be reached does not stop the other engines'
 * cancels (it is named in `unreachable`).
 *
 * @example
 * const { cancelled, failed } = await cancelAll(client, { symbol: 'SOL-USDC' });
 */
export async function cancelAll(
  client: Client,
  params: CancelAllParameters = {},
): Promise<CancelAllReturnType> {
  const result: CancelAllReturnType = { cancelled: [], failed: [], unreachable: [] };
  const live: { order_id: string; symbol: string }[] = [];
  for (const e of await openOrdersByEngine(client)) {
    if (e.error) {
      const { code, message } = e.error;
      result.unreachable.push({ baseUrl: e.baseUrl, code, message, error: e.error });
    } else live.push(...e.orders);
  }
  for (const order of live) {
    if (params.symbol !== undefined && order.symbol !== params.symbol) continue;
    try {
      await cancelOrder(client, { orderId: order.order_id, symbol: order.symbol });
      result.cancelled.push(order.order_id);
    } catch (err) {
      // A typed refusal is this order's answer; anything else is a bug and stops the loop.
      if (!isNightjarError(err)) throw err;
      result.failed.push({ orderId: order.order_id, code: err.code, message: err.message, error: err });
    }
  }
  return result;
}
