import type { OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { fetchOrder } from '../core/venue-reads.js';
import type { NightjarError } from '../core/errors/index.js';

/** The order to read. */
export interface GetOrderParameters {
  orderId: string;
}

/** The order status body of the spec (u64 fields as bigint). */
export type GetOrderReturnType = OrderStatusResponse;

/**
 * `GET /orders/{id}`: an order's status (`pending`, `pending_settlement`, `empty`, `expired`,
 * `cancelled`) and cumulative fill. Throws NOT_FOUND (1301) for an unknown, foreign or aged-out id.
 *
 * @example
 * const { status, filled_quantity } = await getOrder(client, { orderId });
 */
export async function getOrder(client: Client, params: GetOrderParameters): Promise<GetOrderReturnType> {
  return fetchOrder(client, params.orderId);
}

/** What `getOrder` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type GetOrderErrorType = NightjarError;
