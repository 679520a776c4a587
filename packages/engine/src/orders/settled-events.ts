/**
 * The events a settlement outcome sends its party's account, built from the match's journaled
 * plan alone: the same whether its market applies the outcome to a live order (market-engine.ts)
 * or, with no live order or no market to hold it (a match reconciled after a restart), the
 * outcome is published on its own (settlement-effects.ts). Either way they leave through
 * `publishEffects` (market-writer.ts), the one place order events are published.
 */
import type { BusPublication } from '../event-bus.js';
import type { MarketEffects, SettlementOutcomeFor } from './market-commands.js';
import { confirmedEvent, failedEvent } from './event-bodies.js';

/** Appends the outcome's events to `effects`. */
export function recordSettledEvents(
  outcome: SettlementOutcomeFor,
  nowMs: number,
  effects: MarketEffects,
): void {
  const { job, side } = outcome;
  const p = job.plan[side];
  const ids = { match_id: job.plan.matchId, batch_id: job.batchId };
  switch (outcome.kind) {
    case 'settle_confirmed': {
      const memo = job.memos?.[side === 'bid' ? 0 : 1];
      const publications: BusPublication[] = [];
      if (memo)
        publications.push({
          channel: 'fills',
          accountId: p.accountId,
          body: {
            order_id: p.orderId,
            market_id: job.marketId,
            ...ids,
            outcome: 'confirmed',
            tree_id: p.treeId,
            memo,
            server_time_ms: nowMs,
          },
        });
      publications.push({
        channel: 'orders',
        accountId: p.accountId,
        body: confirmedEvent(job.marketId, p, ids, nowMs),
      });
      // The fill and its order event leave after a random hold (event-bus.ts, `publishHeld`), so
      // their arrival does not name the settlement that holds the match.
      effects.held.push({ accountId: p.accountId, publications });
      return;
    }
    case 'settle_failed':
      effects.events.push({
        accountId: p.accountId,
        body: failedEvent(job.marketId, p, ids, outcome.reason, nowMs),
      });
      return;
    case 'settle_returned':
      return; // a returned limit order rests again silently; its market cancels an ioc/fok one
  }
}

/** The effects of an outcome whose order no market holds: its events only. */
export function settledEffects(outcome: SettlementOutcomeFor, nowMs: number): MarketEffects {
  const effects: MarketEffects = { events: [], held: [], batches: [] };
  recordSettledEvents(outcome, nowMs, effects);
  return effects;
}
