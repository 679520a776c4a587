/**
 * Placing the ticket's order: checked again by a fresh preview at the click (the debounced one may
 * lag the last keystroke), held back while a far price is not confirmed, then sent, optionally
 * splitting the backing note to the order's size first.
 */
import { useState } from 'preact/hooks';
import type { OrderPreview, OrderRequest, OrderView } from '../src/api-types.js';
import { api } from './api.js';
import { newRef } from './format.js';
import type { PriceCheck } from './ticket-guards.js';
import { requestOf, validateTicket, type Fields } from './ticket-fields.js';
import { useAction, type Action } from './use-action.js';

export interface Placing extends Pick<Action, 'busy' | 'error'> {
  placed: OrderView | undefined;
  /** The client_ref of the last order sent (its progress frames carry it). */
  ref: string | undefined;
  /** The far-price check that held the last click back, while the price is unchanged. */
  held: PriceCheck | undefined;
  confirmed: boolean;
  setConfirmed: (yes: boolean) => void;
  /** Sends the order; `false` when it was not sent (a local problem, or a far price to confirm). */
  send: (prepareNote?: OrderRequest['prepare_note']) => Promise<boolean>;
}

export function usePlaceOrder(fields: Fields, onPlaced: (o: OrderView) => void): Placing {
  const [placed, setPlaced] = useState<OrderView>();
  const [ref, setRef] = useState<string>();
  const [held, setHeld] = useState<{ price: string; check: PriceCheck }>();
  const [confirmedPrice, setConfirmedPrice] = useState<string>();
  const { busy, error, setError, run } = useAction();
  const price = fields.price.trim();

  const send = async (prepareNote?: OrderRequest['prepare_note']): Promise<boolean> => {
    setPlaced(undefined);
    setError(undefined);
    if (validateTicket(fields, true).length > 0) return false;
    let sent = false;
    await run(async () => {
      const checked = await api<OrderPreview>('POST', '/orders/preview', requestOf(fields));
      if (checked.price_check.far && confirmedPrice !== price) {
        setHeld({ price, check: checked.price_check });
        return;
      }
      const clientRef = newRef();
      setRef(clientRef);
      const body = { ...requestOf(fields, clientRef), ...(prepareNote ? { prepare_note: prepareNote } : {}) };
      const o = await api<OrderView>('POST', '/orders', body);
      sent = true;
      setPlaced(o);
      if (o && typeof o === 'object' && o.order_id) onPlaced(o);
    });
    return sent;
  };

  return {
    busy,
    error,
    placed,
    ref,
    held: held?.price === price ? held.check : undefined,
    confirmed: confirmedPrice !== undefined && confirmedPrice === price,
    setConfirmed: (yes) => setConfirmedPrice(yes ? price : undefined),
    send,
  };
}
