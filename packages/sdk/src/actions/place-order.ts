import type { Client } from '../client.js';
import { withSendLock } from '../core/utils/send-lock.js';
import type { OrderParameters } from '../orders/order-terms.js';
import { prepareOrder, signOrder } from '../orders/prepare-order.js';
import { submitOrder, type PlacedOrder } from '../orders/submit-order.js';
import type { NightjarError } from '../core/errors/index.js';

/** What to order (see `BuildOrderParameters`). */
export type PlaceOrderParameters = OrderParameters;

/** The accepted order. */
export type PlaceOrderReturnType = PlacedOrder;

/** What `placeOrder` throws: what `buildOrder` throws, and the venue's refusals (venue error and its kin). */
export type PlaceOrderErrorType = NightjarError;

/**
 * Builds, proves, signs and places an order (`POST /orders`), and tracks it in the wallet.
 * Several calls at once prove in parallel on the prover's worker threads. When no free note fits,
 * notes are merged (or, with `prepareNote: 'exact'`, split) first: see `NotePreparation`.
 *
 * @example
 * const { orderId } = await placeOrder(client, {
 *   symbol: 'SOL-USDC', side: 'bid', amount: '1.5', price: '150', expiry: { seconds: 300 },
 * });
 */
export async function placeOrder(
  client: Client,
  params: PlaceOrderParameters,
): Promise<PlaceOrderReturnType> {
  const { body, note, split } = await prepareOrder(client, params, { sign: false });
  const placed = await withSendLock(client, () =>
    submitOrder(client, signOrder(client, body), note.commitment),
  ).finally(() => client.wallet.reserved.delete(note.commitment));
  return split ? { ...placed, split } : placed;
}
