/**
 * One market's book, its auction every tick, expiry by slot. Everything that changes the market is
 * a `MarketCommand` (market-commands.ts) applied in `apply`, synchronously and one at a time, so
 * there is never a half-applied change and a market can be driven from a list of messages. `apply`
 * calls out to nothing: the order events and settlement batches a command sets off are returned as
 * its `MarketEffects`, and the market's writer (market-writer.ts) carries them out afterwards, so no
 * command can run inside another (entering `apply` while it applies throws).
 */
import type { Instrument } from '@nightjar/protocol';
import { OrderBook } from '../book/order-book.js';
import { runAuction } from '../book/matcher.js';
import type { PartyPlan, SettlementWindow } from '../settlement/types.js';
import type { EngineOrder } from './engine-order.js';
import type { OrderEventBody } from '../event-bus.js';
import type { OrderRegistry } from './order-registry.js';
import { confirmedKind, orderEvent } from './event-bodies.js';
import { recordSettledEvents } from './settled-events.js';
import {
  unknownCommand,
  type MarketCommand,
  type MarketEffects,
  type SettlementOutcomeFor,
} from './market-commands.js';
import { SETTLEMENT_LOCK_SLOTS } from '../settlement/lock-window.js';
import { auctionShares } from '../settlement/account-share.js';
import { circuitTerms, plannedTerms, useTagFor } from '../settlement/order-terms.js';

export { SETTLEMENT_LOCK_SLOTS };

/** A market with no prover behind it (pure book tests): always matching, default locks, no queue. */
export const OPEN_SETTLEMENT_WINDOW: SettlementWindow = {
  acceptsMatches: () => true,
  lockSlotsFor: () => SETTLEMENT_LOCK_SLOTS,
  queuedMatchesOf: () => 0,
};

export interface MarketEngineDeps {
  registry: OrderRegistry;
  /** What settlement can take now (default `OPEN_SETTLEMENT_WINDOW`). */
  settlement?: SettlementWindow;
  settlementBufferSlots: bigint;
  now(): number;
  /** Venue-wide batch id source. */
  nextBatchId(): bigint;
  /** This market's first match id this boot (default 1): ids never repeat across boots. */
  firstMatchId?: bigint;
  /** The ledger's spent nullifiers as the engine's mirror knows them (note-states.ts). */
  spentNotes?: SpentNotes;
}

/** What the auction asks of the nullifier mirror: is a note spent, and has anything new been spent. */
export interface SpentNotes {
  /** Grows whenever the mirror learns of a spent note. */
  readonly spentCount: number;
  isSpent(nullifier: string): boolean;
}

export class MarketEngine {
  readonly book = new OrderBook<EngineOrder>();
  private tick = 0;
  private nextMatchId: bigint;
  private seq = 0;
  /** The mirror's `spentCount` when the book was last checked against it. */
  private spentSeen = 0;
  private readonly settlement: SettlementWindow;
  /** The effects of the command being applied; set only inside `apply`. */
  private applying: MarketEffects | undefined;

  constructor(
    readonly instrument: Instrument,
    private readonly deps: MarketEngineDeps,
  ) {
    this.nextMatchId = deps.firstMatchId ?? 1n;
    this.settlement = deps.settlement ?? OPEN_SETTLEMENT_WINDOW;
  }

  /** The tick the next auction will run as: ioc/fok orders booked now are judged there. */
  get nextTick(): number {
    return this.tick + 1;
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /**
   * The one place this market changes: each command in full, before the next. Returns what the
   * command set off, for the writer to carry out; a command applied from inside another throws.
   */
  apply(command: MarketCommand): MarketEffects {
    if (this.applying)
      throw new Error(`market ${this.instrument.symbol}: '${command.kind}' applied inside another command`);
    const effects: MarketEffects = { events: [], held: [], batches: [] };
    this.applying = effects;
    try {
      this.run(command);
    } finally {
      this.applying = undefined;
    }
    return effects;
  }

  private run(command: MarketCommand): void {
    switch (command.kind) {
      case 'place':
        return this.place(command.order);
      case 'cancel':
        return this.cancelResting(command.order);
      case 'reclaim':
        return this.reclaimId(command.old, command.replacement);
      case 'slot':
        return this.runSlot(command.slot);
      case 'settle_confirmed':
        this.confirmFill(command.order, command.job.plan[command.side]);
        return this.recordSettled(command);
      case 'settle_failed':
        this.dropFailed(command.order);
        return this.recordSettled(command);
      case 'settle_returned':
        this.rebookReturned(command.order);
        return this.recordSettled(command);
      default:
        return unknownCommand(command);
    }
  }

  /** A settlement outcome's events follow the book change it makes (settled-events.ts). */
  private recordSettled(outcome: SettlementOutcomeFor): void {
    recordSettledEvents(outcome, this.deps.now(), this.applying!);
  }

  // What each command does.

  /** An accepted order rests on the book and becomes live in the lookup. */
  private place(order: EngineOrder): void {
    this.book.add(order);
    this.deps.registry.addLive(order);
  }

  /** Takes a resting order off the book (cancel, modify, disconnect) and retires it. */
  private cancelResting(order: EngineOrder): void {
    this.book.remove(order.orderId);
    this.deps.registry.retire(order, 'cancelled');
    this.emit(order, 'cancelled');
  }

  /** Modify with the same id: the replacement takes the old order's place, with no cancelled event. */
  private reclaimId(old: EngineOrder, replacement: EngineOrder): void {
    this.book.remove(old.orderId);
    this.deps.registry.forget(old);
    this.place(replacement);
  }

  /**
   * One slot: expire, then auction; matched orders go to settlement. While settlement cannot
   * prove more of this market's matches within their locks the auction waits (no tick passes, so
   * an ioc or fok order still gets its arrival auction). Only an account's share of the prover's
   * queue of its orders takes part in the auction (account-share.ts).
   */
  private runSlot(slot: bigint): void {
    this.dropSpentNotes();
    // A resting order holds no lock on chain (locks last only for their match), so nothing to release.
    for (const order of this.book.expire(slot)) {
      this.deps.registry.retire(order, 'expired');
      // A partially filled remainder ends with what it filled.
      this.emit(order, 'expired', order.filledQuantity > 0n ? { filled_quantity: order.filledQuantity } : {});
    }
    const { settlement } = this;
    const marketId = this.instrument.market_id;
    if (!settlement.acceptsMatches(marketId)) return;
    this.tick += 1;
    const result = runAuction(this.book, {
      slot,
      tick: this.tick,
      priceScale: this.instrument.price_scale,
      feeBps: this.instrument.fee_bps,
      settlementBufferSlots: this.deps.settlementBufferSlots,
      nextMatchId: this.nextMatchId,
      admits: auctionShares((accountId) => settlement.queuedMatchesOf(accountId)),
    });
    if (result.nextMatchId !== undefined) this.nextMatchId = result.nextMatchId;
    for (const leaving of result.leaving) {
      if (leaving.match) continue; // partially filled ioc: its remainder leaves after settlement
      this.deps.registry.retire(leaving.order, 'cancelled');
      this.emit(leaving.order, 'cancelled');
    }
    const matchCount = result.batches.reduce((n, b) => n + b.length, 0);
    const lockExpirySlot = slot + settlement.lockSlotsFor(marketId, matchCount);
    for (const matches of result.batches) {
      const batchId = this.deps.nextBatchId();
      for (const m of matches) {
        for (const order of [m.bid, m.ask]) {
          order.lifecycle = 'pending_settlement';
          this.emit(order, 'pending_settlement', {
            match_id: m.matchId.toString(),
            batch_id: batchId,
            lock_expiry_slot: lockExpirySlot,
          });
        }
      }
      this.applying!.batches.push({
        batchId,
        marketId: this.instrument.market_id,
        symbol: this.instrument.symbol,
        matches,
        lockExpirySlot,
        createdAtMs: this.deps.now(),
      });
    }
  }

  /**
   * A confirmed match: quantities change only here (its events: settled-events.ts). A
   * continuing order rests again on its change note, which is not locked on chain: the engine
   * keeps it reserved for the remainder (registry) and locks it at the next match with the
   * VALID_LOCK proof settlement makes for it (`lockSource` 'change', the remainder's use tag). One
   * that ends is `empty` when filled in full, else `cancelled` (ioc remainder, or a remainder its
   * change note cannot back).
   */
  private confirmFill(order: EngineOrder, p: PartyPlan): void {
    order.filledQuantity = BigInt(p.filledAfter);
    const kind = confirmedKind(p);
    if (kind === 'partially_filled') {
      const change = p.outputs.find((o) => o.role === 2)!;
      this.deps.registry.rekeyNote(order, change.commitment);
      order.noteInnerHash = change.inner;
      order.nullifier = change.nullifier;
      order.noteAmount = BigInt(change.amount);
      this.book.release(order.orderId, BigInt(p.newAmount));
      // The lock entry is the change note's now: its use tag binds the remainder's terms.
      order.lockSource = 'change';
      order.merkleRoot = '';
      order.validInputProof = '';
      order.useTag = useTagFor(
        change.commitment,
        change.inner,
        circuitTerms(this.instrument.market_id, order.side, order.orderId, plannedTerms(order)),
      );
      order.lifecycle = 'pending';
      return;
    }
    this.book.remove(order.orderId);
    this.deps.registry.retire(order, kind === 'fully_filled' ? 'empty' : 'cancelled');
  }

  /** A definitive settlement failure: gone from the lookup, never rebooked (its event: settled-events.ts). */
  private dropFailed(order: EngineOrder): void {
    this.book.remove(order.orderId);
    this.deps.registry.forget(order);
  }

  /**
   * The counterparty's lock failed but this order's held: it rests again at its priority (settlement
   * releases the lock; the next match locks the note afresh with the same proof). An ioc/fok order
   * leaves instead.
   */
  private rebookReturned(order: EngineOrder): void {
    if (order.orderType !== 'limit') {
      this.book.remove(order.orderId);
      this.deps.registry.retire(order, 'cancelled');
      this.emit(order, 'cancelled');
      return;
    }
    this.book.release(order.orderId);
    order.lifecycle = 'pending';
  }

  /**
   * Before the auction: a resting order whose note was spent on the ledger since it arrived
   * (withdrawn, split) could only fail its lock and cost its counterparty the match, so it leaves
   * the book (`cancelled`, reason `note_spent`). The book is read only after new spends.
   */
  private dropSpentNotes(): void {
    const spent = this.deps.spentNotes;
    if (!spent || spent.spentCount === this.spentSeen) return;
    this.spentSeen = spent.spentCount;
    for (const order of this.book.pendingOrders()) {
      if (!spent.isSpent(order.nullifier)) continue;
      this.book.remove(order.orderId);
      this.deps.registry.retire(order, 'cancelled');
      this.emit(order, 'cancelled', { reason: 'note_spent' });
    }
  }

  /** Records an order event among the command's effects (the writer publishes it). */
  private emit(order: EngineOrder, kind: OrderEventBody['kind'], extra: Partial<OrderEventBody> = {}): void {
    this.applying!.events.push({
      accountId: order.accountId,
      body: orderEvent(order.orderId, this.instrument.market_id, this.deps.now(), kind, extra),
    });
  }
}
