import { accountOrdersCodec, type OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { NightjarError } from '../core/errors/index.js';
import { openOrdersByEngine } from '../orders/engine-orders.js';
import { withOrderState } from '../wallet/vocabulary.js';
import type { GetOrderReturnType } from './get-order.js';

/** Which market's orders (every market's when omitted). */
export interface GetOpenOrdersParameters {
  /** Only this market's orders, read from its engine alone. */
  symbol?: string;
}
/**
 * The account's live orders: the venue's bodies (bigint base units, as the wallet's
 * `TrackedOrder`) with `state` in the wallet's vocabulary (`pending`, `partially_filled`,
 * `pending_settlement`).
 */
export type GetOpenOrdersReturnType = GetOrderReturnType[];

/**
 * `GET /account/orders`: the account's live orders (resting or settling), merged across the
 * venue's engines; with `symbol`, that market's, from its engine. An engine that cannot be read
 * fails the merged read (its error names it): the list would not be whole.
 *
 * @example
 * const open = await getOpenOrders(client);
 */
export async function getOpenOrders(
  client: Client,
  params: GetOpenOrdersParameters = {},
): Promise<GetOpenOrdersReturnType> {
  const tracked = client.hasWallet ? client.wallet.orders : undefined;
  if (params.symbol !== undefined) {
    const engine = await client.engineFor(params.symbol);
    const orders = await engine.request('/account/orders', { codec: accountOrdersCodec });
    return orders.filter((o) => o.symbol === params.symbol).map((o) => withOrderState(o, tracked));
  }
  const merged = new Map<string, OrderStatusResponse>();
  for (const e of await openOrdersByEngine(client)) {
    if (e.error) throw e.error;
    for (const o of e.orders) merged.set(o.order_id, o);
  }
  return [...merged.values()].map((o) => withOrderState(o, tracked));
}

/** What `getOpenOrders` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type GetOpenOrdersErrorType = NightjarError;
