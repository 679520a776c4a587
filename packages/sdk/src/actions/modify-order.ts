import { encodeCancelBody, modifyCancelFields, modifyResponseCodec, signCanonical } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { withSendLock } from '../core/utils/send-lock.js';
import type { TrackedOrder } from '../wallet/wallet.js';
import type { OrderParameters } from '../orders/order-terms.js';
import { prepareOrder, signOrder } from '../orders/prepare-order.js';
import { trackPlaced, type PlacedOrder } from '../orders/submit-order.js';
import { refreshOrder } from '../orders/refresh-order.js';
import {
  isNightjarError,
  NIGHTJAR_ERROR__ORDER_NOT_MODIFIABLE,
  NightjarError,
  venueError,
} from '../core/errors/index.js';

/** The order to replace and its replacement's fields (symbol and note are the old order's). */
export interface ModifyOrderParameters extends Omit<
  OrderParameters,
  'symbol' | 'note' | 'prepareNote' | 'onNoteProgress'
> {
  /** The resting order to replace. */
  orderId: string;
  /** The replacement's id: the same id reprices in place; default a fresh id. */
  newOrderId?: string;
}

/** The replacement, as `placeOrder` returns it. */
export type ModifyOrderReturnType = PlacedOrder;

/**
 * What `modifyOrder` throws: `ORDER_NOT_MODIFIABLE` (no longer resting), NOT_FOUND (1301), and
 * what `placeOrder` throws for the replacement.
 */
export type ModifyOrderErrorType = NightjarError;

/** Whether the order's note can still back a replacement (not consumed by a fill). */
function noteUsable(client: Client, order: TrackedOrder): boolean {
  const note = client.wallet.notes.get(order.noteCommitment);
  return note !== undefined && note.state !== 'spent' && note.state !== 'spending';
}

/** Re-reads the order after the venue said it is gone; a lookup failure leaves it as it was. */
async function reread(client: Client, order: TrackedOrder): Promise<void> {
  await refreshOrder(client, order).catch(() => undefined);
  client.wallet.save();
}

/**
 * Atomically cancels `orderId` and places a replacement (`PUT /orders/{id}`), both signed by the
 * wallet's trading key. The replacement keeps the symbol and, by default, the same note.
 *
 * An order that is no longer resting (it filled, was cancelled or expired, or is settling) throws
 * `ORDER_NOT_MODIFIABLE` with its status as re-read from the venue; the wallet keeps that
 * status (it never writes a filled order back as `open`). Place a new order instead.
 *
 * @example
 * await modifyOrder(client, { orderId, side: 'bid', amount: '1', price: '149.5' });
 */
export async function modifyOrder(
  client: Client,
  params: ModifyOrderParameters,
): Promise<ModifyOrderReturnType> {
  const wallet = client.wallet;
  const old = wallet.orders.get(params.orderId);
  if (!old) throw venueError(1301, 404, 'this wallet does not track that order');
  // A fill consumed its note (the memo came before the order event): ask the venue what it is now.
  if (old.status === 'pending' && !noteUsable(client, old)) await reread(client, old);
  if (old.status !== 'pending' || !noteUsable(client, old))
    throw new NightjarError(NIGHTJAR_ERROR__ORDER_NOT_MODIFIABLE, {
      orderId: old.orderId,
      status: old.status,
    });
  const { orderId, newOrderId, ...rest } = params;
  // The old order's note backs the replacement: the swap is atomic.
  const { body, note } = await prepareOrder(
    client,
    {
      ...rest,
      symbol: old.symbol,
      note: old.noteCommitment,
      ...(newOrderId ? { orderId: newOrderId } : {}),
    },
    { sign: false, replacing: orderId },
  );
  const trading = wallet.keys.trading;
  try {
    const engine = await client.engineFor(old.symbol);
    const r = await withSendLock(client, () => {
      signOrder(client, body);
      const nonce = client.nonces.next(trading.publicKey, 'cancel');
      const cancelSignature = signCanonical(
        trading.seed,
        encodeCancelBody(modifyCancelFields(orderId, nonce, body)),
      );
      return engine.request(`/orders/${orderId}`, {
        method: 'PUT',
        body: { cancel_signature: cancelSignature, cancel_nonce: nonce.toString(), replacement: body },
        codec: modifyResponseCodec,
      });
    });
    // The old order is gone (a replacement with its own id ends it `cancelled`).
    if (body.order_id !== orderId) client.wallet.updateOrder(old, (o) => (o.status = 'cancelled'));
    await trackPlaced(client, body, note.commitment);
    return {
      orderId: r.order_id,
      status: 'accepted',
      arrivalSlot: r.arrival_slot,
      noteCommitment: note.commitment,
      body,
    };
  } catch (err) {
    // 404: the old order left the book (filled, cancelled, expired) between the check and the swap.
    if (isNightjarError(err, 1301)) {
      await reread(client, old);
      if (old.status !== 'pending')
        throw new NightjarError(
          NIGHTJAR_ERROR__ORDER_NOT_MODIFIABLE,
          { orderId: old.orderId, status: old.status },
          { cause: err },
        );
    }
    throw err;
  } finally {
    wallet.reserved.delete(note.commitment);
  }
}
