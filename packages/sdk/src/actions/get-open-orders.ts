import { accountOrdersCodec } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { NightjarError } from '../core/errors/index.js';
import { withOrderState } from '../wallet/vocabulary.js';
import type { GetOrderReturnType } from './get-order.js';

/** No parameters. */
export type GetOpenOrdersParameters = Record<string, never>;
/**
 * The account's live orders: the venue's bodies (bigint base units, as the wallet's
 * `TrackedOrder`) with `state` in the wallet's vocabulary (`pending`, `partially_filled`,
 * `pending_settlement`).
 */
export type GetOpenOrdersReturnType = GetOrderReturnType[];

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
  const orders = await client.request('/account/orders', { codec: accountOrdersCodec });
  const tracked = client.hasWallet ? client.wallet.orders : undefined;
  return orders.map((o) => withOrderState(o, tracked));
}

/** What `getOpenOrders` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type GetOpenOrdersErrorType = NightjarError;
