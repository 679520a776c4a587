import { accountOrdersCodec, type OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { NightjarError } from '../core/errors/index.js';

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
  return client.request('/account/orders', { codec: accountOrdersCodec });
}

/** What `getOpenOrders` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type GetOpenOrdersErrorType = NightjarError;
