import type { OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { toOrderStatus } from './get-order.js';

/** No parameters. */
export type GetOpenOrdersParameters = Record<string, never>;
/** The account's live orders. */
export type GetOpenOrdersReturnType = OrderStatusResponse[];

/**
 * `GET /account/orders`: the account's live orders (resting or settling).
 *
 * @example
 * const open = await getOpenOrders(client);
 */
export async function getOpenOrders(
  client: Client,
  _params: GetOpenOrdersParameters = {},
): Promise<GetOpenOrdersReturnType> {
  const raw = await client.request<Record<string, unknown>[]>('/account/orders');
  return raw.map(toOrderStatus);
}
