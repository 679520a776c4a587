/**
 * What a settled match does to its orders (the spec's "States and transitions" table), as
 * settlement reports it. Each party's outcome is a command queued to its market's single writer,
 * which changes the live order and publishes its events (market-writer.ts); an order no market
 * holds live (a match reconciled after a restart, a market gone) gets the same events through
 * the same `publishEffects`. Fill memos go on the event bus like every other event, so one
 * confirmed during boot recovery is published too; a confirmed match's pushes are held for a
 * random moment first (`VenueEventBus.publishHeld`).
 */
import type { JobState, OrderEffects, RejectReason } from '../settlement/types.js';
import type { OrderRegistry } from './order-registry.js';
import type { SettlementOutcomeFor } from './market-commands.js';
import { publishEffects, type MarketWriter, type OrderEventOutlet } from './market-writer.js';
import { settledEffects } from './settled-events.js';

/** The reasons that say the party's own note was unusable, and what they say of it. */
const UNUSABLE_NOTE: Partial<Record<RejectReason, 'spent' | 'locked'>> = {
  note_spent: 'spent',
  note_locked: 'locked',
};

export class SettlementEffects implements OrderEffects {
  constructor(
    private readonly deps: {
      registry: OrderRegistry;
      events: OrderEventOutlet;
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
    for (const side of ['bid', 'ask'] as const) this.settle({ kind: 'settle_confirmed', job, side });
  }

  rejected(job: JobState, side: 'bid' | 'ask', reason: RejectReason, ownLockRefused = false): void {
    const p = job.plan[side];
    const unusable = ownLockRefused ? UNUSABLE_NOTE[reason] : undefined;
    if (unusable) this.deps.unusableNote(p.accountId, p.inputNullifier, unusable);
    this.settle({ kind: 'settle_failed', job, side, reason });
  }

  returned(job: JobState, side: 'bid' | 'ask'): void {
    this.settle({ kind: 'settle_returned', job, side });
  }

  /** To the live order's market writer; else its events alone, through the same outlet. */
  private settle(outcome: SettlementOutcomeFor): void {
    const order = this.deps.registry.getLive(outcome.job.plan[outcome.side].orderId);
    const market =
      order?.lifecycle === 'pending_settlement' ? this.deps.marketBySymbol.get(order.symbol) : undefined;
    if (order && market) market.settle(order, outcome);
    else publishEffects(settledEffects(outcome, this.deps.now()), this.deps.events);
  }
}
