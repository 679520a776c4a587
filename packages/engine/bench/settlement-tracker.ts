/**
 * Follows matches on the engine's event bus for settlement.bench.ts (in process, the same events
 * the stream pushes): when each match was made (`pending_settlement`), when it was settled
 * (`partially_filled` / `fully_filled` carrying its match id), per order the time from its last
 * match to `fully_filled`, and for an order filled in two matches the second match's timings.
 */
import type { BusEvent, VenueEventBus } from '../src/event-bus.js';

/** A partially filled order's second match (its remainder, from the change note). */
export interface SecondFill {
  /** The first fill's `partially_filled` (its settlement confirmed) → the second fill's `fully_filled`. */
  fromFirstConfirmMs: number;
  /** The second match's `pending_settlement` → its `fully_filled`. */
  fromSecondMatchMs: number;
  /** The second match's `pending_settlement` − the first fill's `partially_filled` (negative: matched before). */
  matchAfterFirstConfirmMs: number;
}

export class SettlementTracker {
  /** match id → when its first `pending_settlement` was published. */
  readonly matchedAt = new Map<string, number>();
  /** match id → when its first settled event was published. */
  readonly settledAt = new Map<string, number>();
  /** match id → failure reason (a `settlement_failed` carrying it). */
  readonly failed = new Map<string, string>();
  /** Per order that ended `fully_filled`: ms from its last match to that event. */
  readonly matchToFullyFilledMs: number[] = [];
  /** Per order that settled partially and then fully. */
  readonly secondFills: SecondFill[] = [];
  /** Orders that settled partially (their remainder stays reserved), by the events seen. */
  partialFills = 0;
  private readonly lastMatchOf = new Map<string, number>();
  private readonly partialAt = new Map<string, number>();
  private readonly off: () => void;
  private waiter: { n: number; resolve: () => void } | undefined;

  constructor(events: VenueEventBus) {
    this.off = events.subscribe((e) => this.onEvent(e));
  }

  /** Matches decided (settled or failed). */
  get decided(): number {
    return this.settledAt.size + this.failed.size;
  }

  /** Resolves once `n` matches are decided, or after `timeoutMs`. */
  untilDecided(n: number, timeoutMs: number): Promise<void> {
    if (this.decided >= n) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiter = {
        n,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }

  stop(): void {
    this.off();
  }

  private onEvent(e: BusEvent): void {
    if (e.channel !== 'orders') return;
    const b = e.body;
    const matchId = b.match_id;
    if (matchId === undefined) return;
    if (b.kind === 'pending_settlement') {
      if (!this.matchedAt.has(matchId)) this.matchedAt.set(matchId, e.emittedAt);
      this.lastMatchOf.set(b.order_id, e.emittedAt);
    } else if (b.kind === 'partially_filled' || b.kind === 'fully_filled') {
      if (!this.settledAt.has(matchId)) this.settledAt.set(matchId, e.emittedAt);
      const matched = this.lastMatchOf.get(b.order_id);
      if (b.kind === 'partially_filled') {
        this.partialFills += 1;
        if (!this.partialAt.has(b.order_id)) this.partialAt.set(b.order_id, e.emittedAt);
      } else if (matched !== undefined) {
        this.matchToFullyFilledMs.push(e.emittedAt - matched);
        const first = this.partialAt.get(b.order_id);
        const second = this.matchedAt.get(matchId);
        if (first !== undefined && second !== undefined)
          this.secondFills.push({
            fromFirstConfirmMs: e.emittedAt - first,
            fromSecondMatchMs: e.emittedAt - second,
            matchAfterFirstConfirmMs: second - first,
          });
      }
    } else if (b.kind === 'settlement_failed') {
      if (!this.failed.has(matchId)) this.failed.set(matchId, b.reason ?? 'unknown');
    } else return;
    if (this.waiter && this.decided >= this.waiter.n) {
      this.waiter.resolve();
      this.waiter = undefined;
    }
  }
}
