/**
 * The app's order and fill views of the wallet's records (`TrackedOrder` with its ticket,
 * `TrackedFill`), in human units once the market's instrument is known.
 */
import {
  fillKey,
  formatPrice,
  formatUnits,
  isTerminal,
  ORDER_STATE_LABELS,
  SIDE_LABELS,
  trackedOrderState,
  type Instrument,
  type TrackedFill,
  type TrackedOrder,
} from '@nightjar/sdk';
import type { FillView, OrderView } from '../api-types.js';

/** An order as the wallet tracks it; without a ticket (placed elsewhere) a limit order of unknown terms. */
export function orderView(order: TrackedOrder, inst: Instrument | undefined): OrderView {
  const t = order.ticket;
  const status = trackedOrderState(order);
  return {
    order_id: order.orderId,
    symbol: order.symbol,
    side: order.side,
    side_label: SIDE_LABELS[order.side],
    type: t?.type ?? 'limit',
    amount: t?.amount ?? '',
    price: t?.price ?? '',
    filled: inst ? formatUnits(order.filledQuantity, inst.base_decimals) : '0',
    status,
    status_label: ORDER_STATE_LABELS[status],
    terminal: isTerminal(order.status),
    created_at: t?.createdAt ?? 0,
    ...(t?.expiresAt === undefined ? {} : { expires_at: t.expiresAt }),
  };
}

/** The decimals of a fill's fee: the collateral's (quote for a bid, base for an ask). */
export const feeDecimals = (inst: Instrument, side: 'bid' | 'ask'): number =>
  side === 'bid' ? inst.quote_decimals : inst.base_decimals;

/** A fill of `order`; its amounts are empty until its memo (and the instrument) are known. */
export function fillView(fill: TrackedFill, order: TrackedOrder, inst: Instrument | undefined): FillView {
  const side = order.side;
  const [base = 'base', quote = 'quote'] = order.symbol.split('-');
  const s = fill.settlement;
  return {
    fill_id: fillKey(fill.orderId, fill.matchId),
    order_id: fill.orderId,
    symbol: order.symbol,
    side,
    side_label: SIDE_LABELS[side],
    price: inst && fill.price !== undefined ? formatPrice(fill.price, inst) : '',
    size: inst && fill.size !== undefined ? formatUnits(fill.size, inst.base_decimals) : '',
    fee: inst && fill.fee !== undefined ? formatUnits(fill.fee, feeDecimals(inst, side)) : '',
    fee_asset: side === 'bid' ? quote : base,
    time: fill.time,
    settlement: {
      ...(s.batchId === undefined ? {} : { batch_id: s.batchId }),
      stage: s.stage,
      outcome: s.outcome,
      ...(s.signature === undefined ? {} : { ledger_signature: s.signature }),
    },
  };
}
