/**
 * Every `orders` event body is built here. Those of a settled match come from the match's
 * journaled plan alone: the same event whether the order is live (its market applies the change
 * first) or a match reconciled after a restart reports it to an order this boot no longer holds.
 */
import type { PartyPlan, RejectReason } from '../settlement/types.js';
import type { OrderEventBody } from '../event-bus.js';

export interface MatchIds {
  match_id: string;
  batch_id: bigint;
}

/** The fields every order event carries, then the kind's own. */
export function orderEvent(
  orderId: string,
  marketId: string,
  nowMs: number,
  kind: OrderEventBody['kind'],
  extra: Partial<OrderEventBody> = {},
): OrderEventBody {
  return { order_id: orderId, market_id: marketId, server_time_ms: nowMs, kind, ...extra };
}

export type ConfirmedKind = 'partially_filled' | 'fully_filled' | 'cancelled';

/**
 * What a confirmed fill makes of the order: its remainder rests again; or it ends, `fully_filled`
 * when nothing is left, else `cancelled` (an ioc remainder, or one its change note cannot back).
 */
export function confirmedKind(p: PartyPlan): ConfirmedKind {
  if (p.continues) return 'partially_filled';
  return BigInt(p.newAmount) > 0n ? 'cancelled' : 'fully_filled';
}

export function confirmedEvent(marketId: string, p: PartyPlan, ids: MatchIds, nowMs: number): OrderEventBody {
  const kind = confirmedKind(p);
  return orderEvent(p.orderId, marketId, nowMs, kind, {
    ...ids,
    filled_quantity: BigInt(p.filledAfter),
    ...(kind === 'partially_filled'
      ? { new_amount: BigInt(p.newAmount), new_note_amount: BigInt(p.changeAmount) }
      : {}),
  });
}

export function failedEvent(
  marketId: string,
  p: PartyPlan,
  ids: MatchIds,
  reason: RejectReason,
  nowMs: number,
): OrderEventBody {
  return orderEvent(p.orderId, marketId, nowMs, 'settlement_failed', {
    ...ids,
    reason,
    lock_expiry_slot: BigInt(p.lockUntilSlot),
  });
}
