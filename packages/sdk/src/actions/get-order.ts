import type { OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';

/** The order to read. */
export interface GetOrderParameters {
  orderId: string;
}

/** The order status body of the spec (u64 fields as bigint). */
export type GetOrderReturnType = OrderStatusResponse;

/** Normalizes an order status body parsed exactly (integers as bigint). */
export function toOrderStatus(raw: Record<string, unknown>): OrderStatusResponse {
  return {
    order_id: String(raw.order_id),
    symbol: String(raw.symbol),
    side: raw.side as OrderStatusResponse['side'],
    order_type: raw.order_type as OrderStatusResponse['order_type'],
    status: raw.status as OrderStatusResponse['status'],
    amount: BigInt(raw.amount as bigint),
    filled_quantity: BigInt(raw.filled_quantity as bigint),
    price_limit: BigInt(raw.price_limit as bigint),
    expiry_slot: BigInt(raw.expiry_slot as bigint),
    arrival_slot: BigInt(raw.arrival_slot as bigint),
  };
}

/**
 * `GET /orders/{id}`: an order's status (`pending`, `pending_settlement`, `empty`, `expired`,
 * `cancelled`) and cumulative fill. Throws `NotFoundError` for an unknown, foreign or aged-out id.
 *
 * @example
 * const { status, filled_quantity } = await getOrder(client, { orderId });
 */
export async function getOrder(client: Client, params: GetOrderParameters): Promise<GetOrderReturnType> {
  return toOrderStatus(await client.request<Record<string, unknown>>(`/orders/${params.orderId}`));
}
