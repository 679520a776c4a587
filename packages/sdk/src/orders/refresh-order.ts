import type { OrderEvent, OrderStatusResponse } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { eventKindBetween, isLiveStatus, statusFromLookup } from '../wallet/order-status.js';
import type { TrackedOrder } from '../wallet/wallet.js';
import { fetchOrder } from '../core/venue-reads.js';
import { refreshNoteStates } from '../notes/note-states.js';
import { isNightjarError } from '../core/errors/index.js';

/**
 * Re-reads a tracked order with `GET /orders/{id}` and updates it through the wallet's one status
 * mapping (`statusFromLookup`). A 404 frees the note only when the order had been matched (its
 * note locked or spent on the ledger says so too); any other failure (5001, the network) is
 * thrown with the order untouched. Returns the event kind the change amounts to, if any.
 */
export async function refreshOrder(
  client: Client,
  order: TrackedOrder,
): Promise<OrderEvent['kind'] | undefined> {
  const before = { status: order.status, filledQuantity: order.filledQuantity };
  let lookup: OrderStatusResponse | undefined;
  try {
    lookup = await fetchOrder(await client.engineFor(order.symbol), order.orderId);
  } catch (err) {
    if (!isNightjarError(err, 1301)) throw err;
  }
  const note = client.wallet.notes.get(order.noteCommitment);
  // A 404 is read with the ledger's word on the note (locked or spent: the order was matched).
  if (!lookup && note) await refreshNoteStates(client, [note]);
  client.wallet.updateOrder(order, (o) => {
    o.status = statusFromLookup(o, lookup, note?.state);
    if (lookup && lookup.filled_quantity > o.filledQuantity) o.filledQuantity = lookup.filled_quantity;
  });
  // An order that ended lets its note go: its state is the ledger's (spent after a fill).
  if (lookup && note && !isLiveStatus(order.status)) await refreshNoteStates(client, [note]);
  return eventKindBetween(before, order);
}

/**
 * Re-reads every tracked live order (see `refreshOrder`). An order whose lookup fails keeps its
 * status; the others are still read, and the first failure is thrown at the end.
 */
export async function refreshTrackedOrders(client: Client): Promise<void> {
  let first: unknown;
  for (const o of client.wallet.orders.values()) {
    if (!isLiveStatus(o.status)) continue;
    try {
      await refreshOrder(client, o);
    } catch (err) {
      first ??= err;
    }
  }
  if (first !== undefined) throw first;
}
