/**
 * An order as the engine keeps it: what the book and settlement need (`SettleableOrder`: the book's
 * fields, the note, its lock) plus what lookups and idempotency need.
 */
import type { OrderStatusValue, OrderStatusResponse } from '@nightjar/protocol';
import type { SettleableOrder } from '../settlement/types.js';

export interface EngineOrder extends SettleableOrder {
  symbol: string;
  marketId: string;
  /** Size as placed; `amount` (the book's field) is what still rests. */
  originalAmount: bigint;
  /** SHA-256 of the canonical body and the signature, hex: a byte-identical re-send is idempotent. */
  digestHex: string;
  signatureHex: string;
  /** Lookup status; `pending`/`pending_settlement` while in the book, terminal otherwise. */
  lifecycle: OrderStatusValue;
  /** Stream session whose close cancels it: it was placed (or its modify sent) there with cancel-on-disconnect. */
  cancelOnDisconnectSession?: string;
}

export function orderStatusBody(o: EngineOrder): OrderStatusResponse {
  return {
    order_id: o.orderId,
    symbol: o.symbol,
    side: o.side,
    order_type: o.orderType,
    status: o.lifecycle,
    amount: o.originalAmount,
    filled_quantity: o.filledQuantity,
    price_limit: o.priceLimit,
    expiry_slot: o.expirySlot,
    arrival_slot: o.arrivalSlot,
  };
}
