import { encodeCancelBody, modifyCancelFields, signCanonical } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { NotFoundError } from '../errors.js';
import { withSendLock } from '../utils/send-lock.js';
import { prepareOrder, signOrder, type BuildOrderParameters } from './build-order.js';
import { trackPlaced, type PlaceOrderReturnType } from './place-order.js';

/** The order to replace and its replacement's fields (symbol and note are the old order's). */
export interface ModifyOrderParameters extends Omit<BuildOrderParameters, 'symbol' | 'note'> {
  /** The resting order to replace. */
  orderId: string;
  /** The replacement's id: the same id reprices in place; default a fresh id. */
  newOrderId?: string;
}

/** The replacement, as `placeOrder` returns it. */
export type ModifyOrderReturnType = PlaceOrderReturnType;

/**
 * Atomically cancels `orderId` and places a replacement (`PUT /orders/{id}`), both signed by the
 * wallet's trading key. The replacement keeps the symbol and, by default, the same note.
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
  if (!old) throw new NotFoundError(1301, 404, 'this wallet does not track that order');
  const { orderId, newOrderId, ...rest } = params;
  // The old order's note is free for the replacement: the swap is atomic.
  old.status = 'cancelled';
  let built;
  try {
    built = await prepareOrder(
      client,
      {
        ...rest,
        symbol: old.symbol,
        note: old.noteCommitment,
        ...(newOrderId ? { orderId: newOrderId } : {}),
      },
      { sign: false },
    );
  } catch (err) {
    old.status = 'open';
    throw err;
  }
  const { body, note } = built;
  const trading = wallet.keys.trading;
  try {
    const r = await withSendLock(client, () => {
      signOrder(client, body);
      const nonce = client.nonces.next(trading.publicKey, 'cancel');
      const cancelSignature = signCanonical(
        trading.seed,
        encodeCancelBody(modifyCancelFields(orderId, nonce, body)),
      );
      return client.request<{ order_id: string; status: 'accepted'; arrival_slot: bigint }>(
        `/orders/${orderId}`,
        {
          method: 'PUT',
          body: { cancel_signature: cancelSignature, cancel_nonce: nonce.toString(), replacement: body },
        },
      );
    });
    await trackPlaced(client, body, note.commitment);
    return {
      orderId: r.order_id,
      status: 'accepted',
      arrivalSlot: BigInt(r.arrival_slot ?? 0n),
      noteCommitment: note.commitment,
      body,
    };
  } catch (err) {
    old.status = 'open';
    throw err;
  } finally {
    wallet.reserved.delete(note.commitment);
  }
}
