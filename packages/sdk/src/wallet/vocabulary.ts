/**
 * The one vocabulary of every surface (SDK, CLI, app): the spec's words for sides and order
 * states, with the human label shown beside them where people read them ("bid (Buy)",
 * "fully_filled (Filled)"). Users may type `buy`/`sell` for a side; programs get the spec's word.
 */
import type { OrderStatusResponse, Side } from '@nightjar/protocol';
import { isLiveStatus, statusFromLookup } from './order-status.js';
import type { TrackedOrder } from './types.js';

/**
 * An order's state as every surface reports it: the wallet's states, `partially_filled` (still
 * resting, part filled), and `empty` only where nothing better is known (the venue's word for
 * an order that left the book).
 */
export type OrderState = TrackedOrder['status'] | 'partially_filled' | 'empty';

/** The human label of each order state. */
export const ORDER_STATE_LABELS: Readonly<Record<OrderState, string>> = {
  pending: 'Open',
  pending_settlement: 'Settling',
  partially_filled: 'Partly filled',
  fully_filled: 'Filled',
  settlement_failed: 'Settlement failed',
  cancelled: 'Cancelled',
  expired: 'Expired',
  empty: 'Closed',
};

/** The human label of each side. */
export const SIDE_LABELS = { bid: 'Buy', ask: 'Sell' } as const satisfies Record<Side, string>;

/** The words a user may type for a side: the spec's and their aliases. */
export const SIDE_WORDS: Readonly<Record<string, Side>> = { bid: 'bid', ask: 'ask', buy: 'bid', sell: 'ask' };

/**
 * The side a typed word names (`bid`, `ask`, or the aliases `buy`, `sell`; any case), or
 * undefined for any other word.
 *
 * @example
 * parseSide('buy'); // 'bid'
 */
export function parseSide(word: string): Side | undefined {
  return Object.hasOwn(SIDE_WORDS, word.toLowerCase()) ? SIDE_WORDS[word.toLowerCase()] : undefined;
}

/** A side with its label, as people read it: `bid (Buy)`. */
export const sideWithLabel = (side: Side): string => `${side} (${SIDE_LABELS[side]})`;

/** A state with its label, as people read it: `fully_filled (Filled)`. */
export const stateWithLabel = (state: OrderState): string => `${state} (${ORDER_STATE_LABELS[state]})`;

/** The state of a wallet's order: a resting order with a fill is `partially_filled`. */
export function trackedOrderState(order: Pick<TrackedOrder, 'status' | 'filledQuantity'>): OrderState {
  return order.status === 'pending' && order.filledQuantity > 0n ? 'partially_filled' : order.status;
}

/**
 * The state the venue's order body implies, for an order the wallet does not track: its `empty`
 * (left the book) is `fully_filled` when the whole amount filled; otherwise `empty` stays, as the
 * venue does not say whether the rest was cancelled or expired.
 */
export function venueOrderState(
  o: Pick<OrderStatusResponse, 'status' | 'amount' | 'filled_quantity'>,
): OrderState {
  if (o.status === 'empty') return o.filled_quantity === o.amount ? 'fully_filled' : 'empty';
  if (o.status === 'pending' && o.filled_quantity > 0n) return 'partially_filled';
  return o.status;
}

/**
 * The state of the venue's order body, told by what the wallet knows of it when it tracks it: a
 * terminal state the wallet heard (`settlement_failed`, a fill) stands; a live one is read
 * through the wallet's one mapping (`statusFromLookup`). An untracked order: `venueOrderState`.
 */
export function orderStateOf(
  lookup: OrderStatusResponse,
  tracked: Pick<TrackedOrder, 'status' | 'filledQuantity'> | undefined,
): OrderState {
  if (!tracked) return venueOrderState(lookup);
  if (!isLiveStatus(tracked.status)) return tracked.status;
  const filled =
    lookup.filled_quantity > tracked.filledQuantity ? lookup.filled_quantity : tracked.filledQuantity;
  return trackedOrderState({ status: statusFromLookup(tracked, lookup), filledQuantity: filled });
}

/**
 * The venue's order body with its `state` (`orderStateOf`), read with the wallet's tracked
 * orders when there is a wallet.
 */
export function withOrderState(
  o: OrderStatusResponse,
  tracked: ReadonlyMap<string, Pick<TrackedOrder, 'status' | 'filledQuantity'>> | undefined,
): OrderStatusResponse & { state: OrderState } {
  return { ...o, state: orderStateOf(o, tracked?.get(o.order_id)) };
}
