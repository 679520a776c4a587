import type { OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { findOrder } from '../orders/order-engine.js';
import type { NightjarError } from '../core/errors/index.js';
import { withOrderState, type OrderState } from '../wallet/vocabulary.js';

/** The order to read. */
export interface GetOrderParameters {
  orderId: string;
  /** The order's market (names its engine); by default the wallet's record, else every engine is asked. */
  symbol?: string;
}

/**
 * The order status body of the spec (u64 fields as bigint, base units) and `state`: the one
 * vocabulary's state of the order (`ORDER_STATE_LABELS`), as the client's wallet knows it when it
 * tracks the order (the venue's `status` says `empty` for a filled order; `state` says
 * `fully_filled`).
 */
export type GetOrderReturnType = OrderStatusResponse & { state: OrderState };

/**
 * `GET /orders/{id}`: an order's venue status (`pending`, `pending_settlement`, `empty`, `expired`,
 * `cancelled`), its `state` and cumulative fill. Throws NOT_FOUND (1301) for an unknown, foreign
 * or aged-out id (from every engine, when the wallet does not know the order's market).
 *
 * @example
 * const { state, filled_quantity } = await getOrder(client, { orderId });
 */
export async function getOrder(client: Client, params: GetOrderParameters): Promise<GetOrderReturnType> {
  const tracked = client.hasWallet ? client.wallet.orders : undefined;
  return withOrderState((await findOrder(client, params.orderId, params.symbol)).status, tracked);
}

/** What `getOrder` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type GetOrderErrorType = NightjarError;
