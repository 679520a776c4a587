/**
 * What a settled match does to its orders and who hears of it (the spec's "States and
 * transitions" table). Live orders change through their market's single writer; an order this
 * boot no longer holds (a match reconciled after a restart) gets its events and memo only. Both
 * get the one event `event-bodies.ts` builds from the match's plan. Fill memos go on the event bus
 * like every other event, so one confirmed during boot recovery is published too; a confirmed
 * match's pushes are held for a random moment first (`VenueEventBus.publishHeld`).
 */
import type { JobState, OrderEffects, RejectReason } from '../settlement/types.js';
import type { BusPublication, VenueEventBus } from '../event-bus.js';
import type { MarketWriter } from './market-writer.js';
import type { OrderRegistry } from './order-registry.js';
import { confirmedEvent, failedEvent } from './event-bodies.js';

/** The reasons that say the party's own note was unusable, and what they say of it. */
const UNUSABLE_NOTE: Partial<Record<RejectReason, 'spent' | 'locked'>> = {
  note_spent: 'spent',
  note_locked: 'locked',
};

export class SettlementEffects implements OrderEffects {
  constructor(
    private readonly deps: {
      registry: OrderRegistry;
      events: VenueEventBus;
      marketBySymbol: Map<string, MarketWriter>;
      now(): number;
      /**
       * A party's note was found spent or locked by the ledger when its match came (its lock or
       * settle refused): the nullifier mirror learns it and the account's throttle counts it.
       */
      unusableNote(accountId: string, nullifier: string, state: 'spent' | 'locked'): void;
    },
  ) {}

  confirmed(job: JobState): void {
    const ids = { match_id: job.plan.matchId, batch_id: job.batchId };
    (['bid', 'ask'] as const).forEach((side, i) => {
      const p = job.plan[side];
      const memo = job.memos?.[i];
      const pushes: BusPublication[] = [];
      if (memo)
        pushes.push({
          channel: 'fills',
          accountId: p.accountId,
          body: {
            order_id: p.orderId,
            market_id: job.marketId,
            ...ids,
            outcome: 'confirmed',
            tree_id: p.treeId,
            memo,
            server_time_ms: this.deps.now(),
          },
        });
      const live = this.live(p.orderId);
      if (live) live.market.settleConfirmed(live.order, p);
      pushes.push({
        channel: 'orders',
        accountId: p.accountId,
        body: confirmedEvent(job.marketId, p, ids, this.deps.now()),
      });
      // The fill and its order event leave after a random hold (event-bus.ts, `publishHeld`), so
      // their arrival does not name the settlement that holds the match. The book changes now.
      this.deps.events.publishHeld(p.accountId, pushes);
    });
  }

  rejected(job: JobState, side: 'bid' | 'ask', reason: RejectReason, ownLockRefused = false): void {
    const p = job.plan[side];
    const ids = { match_id: job.plan.matchId, batch_id: job.batchId };
    const live = this.live(p.orderId);
    if (live) live.market.settleFailed(live.order);
    const unusable = ownLockRefused ? UNUSABLE_NOTE[reason] : undefined;
    if (unusable) this.deps.unusableNote(p.accountId, p.inputNullifier, unusable);
    this.deps.events.emit(p.accountId, failedEvent(job.marketId, p, ids, reason, this.deps.now()));
  }

  returned(job: JobState, side: 'bid' | 'ask'): void {
    const p = job.plan[side];
    const live = this.live(p.orderId);
    if (live) live.market.settleReturned(live.order);
  }

  private live(orderId: string) {
    const order = this.deps.registry.getLive(orderId);
    if (!order || order.lifecycle !== 'pending_settlement') return undefined;
    const market = this.deps.marketBySymbol.get(order.symbol);
    return market ? { order, market } : undefined;
  }
}
