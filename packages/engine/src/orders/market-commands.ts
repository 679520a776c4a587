/**
 * Every change to one market, as a message (in the manner of exchange-core's `OrderCommand`): the
 * market's single writer applies them one at a time in `MarketEngine.apply`, so a market can be
 * driven, replayed and tested from a list of commands. The union is closed: `apply` ends in a
 * `never` check, so a new kind does not compile until it is handled there.
 *
 * `apply` calls nothing outside the market: what a command sets off (its order events, the
 * batches its auction matched) comes back as `MarketEffects`, which the market's writer carries
 * out once the command is applied (market-writer.ts).
 */
import type { PartyPlan, SettlementBatch } from '../settlement/types.js';
import type { OrderEventBody } from '../event-bus.js';
import type { EngineOrder } from './engine-order.js';

export type MarketCommand =
  /** An accepted order rests on the book (intake checked it and stamped its seq). */
  | { kind: 'place'; order: EngineOrder }
  /** A resting order leaves the book (cancel, modify to another id, disconnect) and is retired. */
  | { kind: 'cancel'; order: EngineOrder }
  /** Modify with the same id: the replacement takes the old order's place, with no cancelled event. */
  | { kind: 'reclaim'; old: EngineOrder; replacement: EngineOrder }
  /** One slot passed: expiry, then the auction; matched orders go to settlement. */
  | { kind: 'slot'; slot: bigint }
  /** The ledger confirmed a match of this order, as its party plan describes. */
  | { kind: 'settle_confirmed'; order: EngineOrder; party: PartyPlan }
  /** A definitive settlement failure of this order's match. */
  | { kind: 'settle_failed'; order: EngineOrder }
  /** The counterparty's lock failed but this order's held (settlement releases it): it rests again. */
  | { kind: 'settle_returned'; order: EngineOrder };

export type MarketCommandKind = MarketCommand['kind'];

/** The `never` arm of `apply`: unreachable while the union is handled in full; a forged kind throws. */
export function unknownCommand(command: never): never {
  throw new Error(`unknown market command: ${(command as { kind?: unknown }).kind}`);
}

/** An `orders` event for the account that placed the order. */
export interface AccountOrderEvent {
  accountId: string;
  body: OrderEventBody;
}

/** What one command set off, in the order it happened: published, then handed to settlement. */
export interface MarketEffects {
  events: AccountOrderEvent[];
  batches: SettlementBatch[];
}
