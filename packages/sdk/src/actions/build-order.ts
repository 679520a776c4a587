import type { Client } from '../client.js';
import type { OrderParameters, PreparedOrder } from '../orders/order-terms.js';
import { prepareOrder } from '../orders/prepare-order.js';
import type { NightjarError } from '../core/errors/index.js';

/** What to order: amounts and prices in human decimals (exact) or atomic bigints. */
export type BuildOrderParameters = OrderParameters;

/** The signed place-order body and the note backing it (reserved until placed). */
export type BuildOrderReturnType = PreparedOrder;

/**
 * What `buildOrder` throws: `PARAMETER` (terms the venue would refuse), the note errors
 * (`INSUFFICIENT_NOTES`, `NOTES_PENDING`, `NOTE_HELD`), `PROOF`, or a failed read.
 */
export type BuildOrderErrorType = NightjarError;

/**
 * Builds, proves and signs an order (without sending it): converts amounts exactly with the
 * instrument's decimals and `price_scale`, selects a note the venue's tree has (waiting for one
 * that is about to be, bounded by `noteWaitMs`; splitting or merging notes first when none fits,
 * as `prepareNote` says), resolves the expiry slot, proves
 * VALID_INPUT v2 for this very order (its terms bound) against the engine's tree, takes a durable `arrival_nonce` and signs the canonical
 * body with the wallet's trading key. The chosen note is reserved until `release` or placement.
 *
 * @example
 * const { body } = await buildOrder(client, { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '150' });
 */
export async function buildOrder(
  client: Client,
  params: BuildOrderParameters,
): Promise<BuildOrderReturnType> {
  return prepareOrder(client, params, { sign: true });
}
