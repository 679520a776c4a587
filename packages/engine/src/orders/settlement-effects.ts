/**
 * What a settled match does to its orders and who hears of it (the spec's "States and
 * transitions" table). Live orders change through their market's single writer; an order this
 * boot no longer holds (a match reconciled after a restart) gets its events and memo only.
 */
import type { StreamHub } from '../stream/hub.js';
import type { OrderEffects } from '../settlement/pipeline.js';
import type { JobState, RejectReason } from '../settlement/types.js';
import type { OrderEvents } from './events.js';
import type { MarketEngine } from './market-engine.js';
import type { OrderRegistry } from './order-registry.js';

export class SettlementEffects implements OrderEffects {
  constructor(
    private readonly deps: {
      registry: OrderRegistry;
      events: OrderEvents;
      hub: () => StreamHub | undefined;
      marketBySymbol: Map<string, MarketEngine>;
      now(): number;
    },
  ) {}

  confirmed(job: JobState): void {
    const ids = { match_id: job.plan.matchId, batch_id: job.batchId };
    (['bid', 'ask'] as const).forEach((side, i) => {
      const p = job.plan[side];
      const memo = job.memos?.[i];
      if (memo)
        this.deps.hub()?.publishFill(p.accountId, {
          order_id: p.orderId,
          market_id: job.marketId,
          ...ids,
          outcome: 'confirmed',
          tree_id: p.treeId,
          memo,
          server_time_ms: this.deps.now(),
        });
      const live = this.live(p.orderId);
      if (live) live.market.settleConfirmed(live.order, p, ids);
      else
        this.deps.events.emit(p.accountId, {
          order_id: p.orderId,
          market_id: job.marketId,
          server_time_ms: this.deps.now(),
          kind: p.continues ? 'partially_filled' : 'fully_filled',
          ...ids,
          filled_quantity: BigInt(p.filledAfter),
          ...(p.continues
            ? { new_amount: BigInt(p.newAmount), new_note_amount: BigInt(p.changeAmount) }
            : {}),
        });
    });
  }

  rejected(job: JobState, side: 'bid' | 'ask', reason: RejectReason): void {
    const p = job.plan[side];
    const extra = {
      match_id: job.plan.matchId,
      batch_id: job.batchId,
      reason,
      lock_expiry_slot: BigInt(p.lockUntilSlot),
    };
    const live = this.live(p.orderId);
    if (live) live.market.settleFailed(live.order, extra);
    else
      this.deps.events.emit(p.accountId, {
        order_id: p.orderId,
        market_id: job.marketId,
        server_time_ms: this.deps.now(),
        kind: 'settlement_failed',
        ...extra,
      });
  }

  returned(job: JobState, side: 'bid' | 'ask'): void {
    const p = job.plan[side];
    const live = this.live(p.orderId);
    if (live) live.market.settleReturned(live.order, BigInt(p.lockUntilSlot));
  }

  private live(orderId: string) {
    const order = this.deps.registry.getLive(orderId);
    if (!order || order.lifecycle !== 'pending_settlement') return undefined;
    const market = this.deps.marketBySymbol.get(order.symbol);
    return market ? { order, market } : undefined;
  }
}
