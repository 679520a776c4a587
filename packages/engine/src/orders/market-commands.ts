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
import type { JobState, RejectReason, SettlementBatch } from '../settlement/types.js';
import type { BusPublication, OrderEventBody } from '../event-bus.js';
import type { EngineOrder } from './engine-order.js';

/**
 * What settlement found of one party's order in a job (settlement-effects.ts sends it): the job
 * carries the match's journaled plan, from which the book change and the events are made.
 */
export type SettlementOutcomeFor =
  /** The ledger confirmed the match: the order fills as its party plan describes. */
  | { kind: 'settle_confirmed'; job: JobState; side: 'bid' | 'ask' }
  /** A definitive settlement failure of this party's match. */
  | { kind: 'settle_failed'; job: JobState; side: 'bid' | 'ask'; reason: RejectReason }
  /** The counterparty's lock failed but this order's held (settlement releases it): it rests again. */
  | { kind: 'settle_returned'; job: JobState; side: 'bid' | 'ask' };

export type MarketCommand =
  /** An accepted order rests on the book (intake checked it and stamped its seq). */
  | { kind: 'place'; order: EngineOrder }
  /** A resting order leaves the book (cancel, modify to another id, disconnect) and is retired. */
  | { kind: 'cancel'; order: EngineOrder }
  /** Modify with the same id: the replacement takes the old order's place, with no cancelled event. */
  | { kind: 'reclaim'; old: EngineOrder; replacement: EngineOrder }
  /** One slot passed: expiry, then the auction; matched orders go to settlement. */
  | { kind: 'slot'; slot: bigint }
  /** A settlement outcome for this live order of the market. */
  | (SettlementOutcomeFor & { order: EngineOrder });

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

/** Publications for one account that leave together after a random hold (a confirmed fill's). */
export interface HeldPublications {
  accountId: string;
  publications: BusPublication[];
}

/**
 * What one command set off, in the order it happened: its events published, then its held
 * groups, then its batches handed to settlement.
 */
export interface MarketEffects {
  events: AccountOrderEvent[];
  held: HeldPublications[];
  batches: SettlementBatch[];
}
