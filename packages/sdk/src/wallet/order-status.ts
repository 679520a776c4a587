/**
 * The one mapping from what the venue says about an order (a stream event kind, or the order
 * lookup) to the wallet's status of that order, used by live events, the stream's resync and
 * `syncWallet` alike. A live status keeps the order's note reserved; only a definitive answer
 * frees it: a terminal event or lookup status, or a 404 for an order the venue had matched (the
 * lookup forgets an order whose settlement failed). A 404 before any match, a 5001 or a network
 * error proves nothing, and the order stays as it was.
 */
import type { OrderEvent, OrderEventKind, OrderStatusResponse } from '@nightjar/protocol';
import type { TrackedOrder, WalletNote } from './types.js';

export type OrderStatus = TrackedOrder['status'];

const LIVE: ReadonlySet<OrderStatus> = new Set(['pending', 'pending_settlement']);

/**
 * The SDK's order states, one vocabulary for the wallet's tracked orders and the stream's order
 * events (the spec's words): `pending` (resting; also after a `partially_filled` event), `pending_settlement` (matched,
 * settling), and the terminal ones, after which an order never changes again: `fully_filled`,
 * `cancelled`, `expired`, `settlement_failed`.
 */
export const TERMINAL_ORDER_STATES: ReadonlySet<OrderStatus> = new Set([
  'fully_filled',
  'cancelled',
  'expired',
  'settlement_failed',
]);

/**
 * Whether an order state or a stream event kind is final: the order will not change again, and
 * a program waiting on it can stop (`partially_filled` is not: the rest keeps trading).
 *
 * @example
 * stream.on('order', ({ event }) => { if (isTerminal(event.kind)) done(event); });
 */
export function isTerminal(state: OrderStatus | OrderEventKind): boolean {
  return TERMINAL_ORDER_STATES.has(state as OrderStatus);
}

/** Whether the order still holds its note (resting or settling). */
export function isLiveStatus(status: OrderStatus): boolean {
  return LIVE.has(status);
}

/** The status a stream event kind puts an order in. */
export function statusFromEvent(kind: OrderEvent['kind']): OrderStatus {
  return kind === 'partially_filled' ? 'pending' : kind;
}

/**
 * The status an order lookup implies. `lookup` undefined is a 404; `noteState` is the ledger's
 * state of the order's note, if known (a note locked or spent on the ledger was matched).
 */
export function statusFromLookup(
  order: Pick<TrackedOrder, 'status' | 'filledQuantity'>,
  lookup: OrderStatusResponse | undefined,
  noteState?: WalletNote['state'],
): OrderStatus {
  if (!lookup) {
    const matched =
      order.status === 'pending_settlement' ||
      order.filledQuantity > 0n ||
      noteState === 'locked' ||
      noteState === 'spent';
    return matched ? 'settlement_failed' : order.status;
  }
  switch (lookup.status) {
    case 'pending':
      return 'pending';
    case 'pending_settlement':
      return 'pending_settlement';
    case 'cancelled':
    case 'expired':
      return lookup.status;
    case 'empty':
      return lookup.filled_quantity === lookup.amount ? 'fully_filled' : 'cancelled';
    default:
      return order.status;
  }
}

/** The event kind that tells a listener what changed between two views of an order, if any. */
export function eventKindBetween(
  before: { status: OrderStatus; filledQuantity: bigint },
  after: { status: OrderStatus; filledQuantity: bigint },
): OrderEvent['kind'] | undefined {
  if (after.status === 'pending')
    return after.filledQuantity > before.filledQuantity ? 'partially_filled' : undefined;
  return after.status === before.status ? undefined : after.status;
}

/**
 * Applies a live stream event to a tracked order. A terminal order stays terminal (its note was
 * let go; nothing the venue sends after its last event revives it).
 */
export function applyOrderEvent(o: TrackedOrder, kind: OrderEvent['kind'], filled: bigint | undefined): void {
  if (!isLiveStatus(o.status)) return;
  if (filled !== undefined && filled > o.filledQuantity) o.filledQuantity = filled;
  o.status = statusFromEvent(kind);
}
