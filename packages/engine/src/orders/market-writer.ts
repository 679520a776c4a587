/**
 * A market's single writer: the only way commands reach its `MarketEngine`. Commands wait in a
 * FIFO and are applied one at a time; after each, the writer carries out its effects: the order
 * events are published (the one place a market's events leave it) and matched batches are handed
 * to settlement. Settlement may answer at once (a batch it refuses is failed while `submit` runs):
 * the outcome it sends back is one more command, queued behind the one that caused it, so it is
 * applied after that command, never inside it.
 */
import type { VenueEventBus } from '../event-bus.js';
import type { PartyPlan, SettlementSeam } from '../settlement/types.js';
import type { EngineOrder } from './engine-order.js';
import type { MarketCommand, MarketEffects } from './market-commands.js';
import type { MarketEngine } from './market-engine.js';

export interface MarketWriterDeps {
  events: Pick<VenueEventBus, 'emit'>;
  settlement: Pick<SettlementSeam, 'submit'>;
}

export class MarketWriter {
  private readonly queue: MarketCommand[] = [];
  private draining = false;

  constructor(
    readonly market: MarketEngine,
    private readonly deps: MarketWriterDeps,
  ) {}

  get instrument() {
    return this.market.instrument;
  }

  /**
   * Queues the command; unless a drain is under way further up the stack (the command came from
   * another's effects), applies the queue in order until it is empty.
   */
  dispatch(command: MarketCommand): void {
    this.queue.push(command);
    if (this.draining) return;
    this.draining = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift())
        this.carryOut(this.market.apply(next));
    } finally {
      this.draining = false;
    }
  }

  // The named entry points, for callers: each queues its command.

  add(order: EngineOrder): void {
    this.dispatch({ kind: 'place', order });
  }

  cancel(order: EngineOrder): void {
    this.dispatch({ kind: 'cancel', order });
  }

  reclaim(old: EngineOrder, replacement: EngineOrder): void {
    this.dispatch({ kind: 'reclaim', old, replacement });
  }

  onSlot(slot: bigint): void {
    this.dispatch({ kind: 'slot', slot });
  }

  settleConfirmed(order: EngineOrder, party: PartyPlan): void {
    this.dispatch({ kind: 'settle_confirmed', order, party });
  }

  settleFailed(order: EngineOrder): void {
    this.dispatch({ kind: 'settle_failed', order });
  }

  settleReturned(order: EngineOrder): void {
    this.dispatch({ kind: 'settle_returned', order });
  }

  /** Events first (a match's `pending_settlement` precedes anything settlement says of it). */
  private carryOut(effects: MarketEffects): void {
    for (const e of effects.events) this.deps.events.emit(e.accountId, e.body);
    for (const batch of effects.batches) this.deps.settlement.submit(batch);
  }
}
