/**
 * A market's single writer: the only way commands reach its `MarketEngine`. Commands wait in a
 * FIFO and are applied one at a time; after each, the writer carries out its effects: the order
 * events are published (`publishEffects`, the one place order events leave the engine's orders)
 * and matched batches are handed to settlement. Settlement's outcomes come back as commands too
 * (settlement-effects.ts); it may answer at once (a batch it refuses is failed while `submit`
 * runs): that outcome is queued behind the command that caused it, so it is applied after that
 * command, never inside it. Its `settlement_failed` events therefore follow every event of the
 * slot that matched it (a later batch's `pending_settlement` too), as they did before.
 */
import type { VenueEventBus } from '../event-bus.js';
import type { SettlementSeam } from '../settlement/types.js';
import type { EngineOrder } from './engine-order.js';
import type { MarketCommand, MarketEffects, SettlementOutcomeFor } from './market-commands.js';
import type { MarketEngine } from './market-engine.js';

export type OrderEventOutlet = Pick<VenueEventBus, 'emit' | 'publishHeld'>;

/**
 * Publishes what a command set off: its order events, then its held groups (a confirmed fill's
 * memo and event). Every order event leaves through here: a market's writer after each command,
 * and a settlement outcome no market holds (settlement-effects.ts).
 */
export function publishEffects(effects: MarketEffects, events: OrderEventOutlet): void {
  for (const e of effects.events) events.emit(e.accountId, e.body);
  for (const h of effects.held) events.publishHeld(h.accountId, h.publications);
}

export interface MarketWriterDeps {
  events: OrderEventOutlet;
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

  /** A settlement outcome for this live order. */
  settle(order: EngineOrder, outcome: SettlementOutcomeFor): void {
    this.dispatch({ ...outcome, order });
  }

  /** Events first (a match's `pending_settlement` precedes anything settlement says of it). */
  private carryOut(effects: MarketEffects): void {
    publishEffects(effects, this.deps.events);
    for (const batch of effects.batches) this.deps.settlement.submit(batch);
  }
}
