/**
 * The batch auction of one market (DESIGN.md section 5): one uniform clearing price per tick,
 * then allocation by priority into one-to-one fills.
 *
 * Who takes part: resting (`pending`) orders with expirySlot > slot + settlementBufferSlots;
 * an ioc/fok order only in its arrival batch (the first auction with tick ≥ its arrivalTick);
 * only orders `admits` admits, when given (an account's share of the prover's queue: the others
 * neither trade nor count in the price, and rest for a later auction).
 * The clearing price P comes from those orders (clearing.ts). Then bids with limit ≥ P and asks
 * with limit ≤ P (an ask at 0 always) are allocated.
 *
 * The walk. Each order takes at most one fill per batch (its collateral note is consumed by that
 * fill), so a fill pairs one bid with one ask for q = min(bid.amount, ask.amount).
 *  - Bids are visited once each in priority order: limit high → low, then arrival slot, then
 *    intake sequence.
 *  - Asks form one queue in priority order: limit low → high (0 first), then arrival slot, then
 *    sequence. The queue is the asks already passed over by earlier bids (kept in order in a
 *    "skipped" list) followed by the asks not yet reached (a cursor into the book).
 *  - Each bid takes the first ask in that queue it is compatible with: q ≥ both min_fill_sizes,
 *    a fok side filled whole (q equals its amount), different trading keys and different owner
 *    commitments. Asks it cannot take stay in the queue, at their place, for later bids. A bid
 *    tries at most `maxProbesPerOrder` asks; past that it gets no fill in this batch.
 *  - The walk stops when the bids or the queue run out.
 * So without skips the k-th bid pairs with the k-th ask; a skip only moves a bid on to the next
 * ask in priority, and an ask keeps its place for the next bid. Everything is determined by the
 * book's content (seq breaks every tie), so the result is deterministic. And it is maximal:
 * when the walk ends, no unmatched bid ≥ P and ask ≤ P could still fill each other, unless a
 * bid gave up at the probe bound (every unmatched ask was in the queue when each unmatched bid
 * looked through it).
 *
 * "One fill per batch" is in effect one fill per tick: the residual of a partially filled order
 * needs the new note that only the confirmed settlement creates, so the order stays reserved
 * until the engine releases it.
 *
 * Why Σ q never exceeds the executable volume V(P) = min(D(P), S(P)): every matched bid is one
 * of the orders counted in D(P) (same eligibility, limit ≥ P), appears in at most one match and
 * gives q ≤ its amount, so Σ q ≤ D(P); the same argument over asks gives Σ q ≤ S(P). Amounts
 * do not change during the walk (reservations are applied after it). Σ q falls short of V(P)
 * when one-fill-per-order leaves the larger side of a pair with a remainder, and when pairs are
 * skipped; remainders rest (limit orders) and trade in later ticks once settlement releases them.
 *
 * Afterwards: matched orders become `pending_settlement` (reserved); ioc/fok orders judged in
 * this auction that got no fill are removed and reported in `leaving`; an ioc with a partial
 * fill is reported in `leaving` with its match (its remainder must not rest).
 *
 * Cost: the price visits only the levels where the sides cross (clearing.ts); the walk visits
 * bids ≥ P and asks ≤ P, which lie in that same crossed band, with at most `maxProbesPerOrder`
 * tries per bid; then one reservation per matched order. Nothing is proportional to the
 * resting book away from the crossing, and per-tick scratch is reused.
 */
import { feeOn, quoteForFill } from '@nightjar/protocol';
import { clearBook } from './clearing.js';
import {
  eligible,
  LevelCursor,
  NODE_RESTING,
  type Admits,
  type OrderNode,
  type SortedLevels,
} from './levels.js';
import type { OrderBook } from './order-book.js';
import type { AuctionOptions, AuctionResult, BookOrder, LeavingOrder, Match } from './types.js';

export const DEFAULT_MAX_MATCHES_PER_BATCH = 16;
export const DEFAULT_MAX_PROBES_PER_ORDER = 64;

/** True when bid and ask may fill each other for q = min(amounts). */
export function compatible(bid: BookOrder, ask: BookOrder, q: bigint): boolean {
  return (
    q >= bid.minFillSize &&
    q >= ask.minFillSize &&
    (bid.orderType !== 'fok' || q === bid.amount) &&
    (ask.orderType !== 'fok' || q === ask.amount) &&
    bid.tradingKey !== ask.tradingKey &&
    bid.ownerCommitment !== ask.ownerCommitment
  );
}

/**
 * Walks one side's eligible resting orders in priority order, up to a price bound. Reused:
 * `reset` before each walk, `clear` after.
 */
class SideWalk {
  private readonly levels = new LevelCursor<BookOrder>();
  private node: OrderNode<BookOrder> | null = null;
  private bid = false;
  private bound = 0n;
  private cutoff = 0n;
  private tick = 0;
  private admits: Admits | undefined;

  reset(
    levels: SortedLevels<BookOrder>,
    bid: boolean,
    bound: bigint,
    cutoff: bigint,
    tick: number,
    admits: Admits | undefined,
  ): this {
    this.levels.reset(levels, !bid);
    this.node = null;
    this.bid = bid;
    this.bound = bound;
    this.cutoff = cutoff;
    this.tick = tick;
    this.admits = admits;
    return this;
  }

  next(): OrderNode<BookOrder> | null {
    for (;;) {
      let n = this.node;
      while (n !== null) {
        const next = n.next;
        if (eligible(n.order, this.cutoff, this.tick, this.admits)) {
          this.node = next;
          return n;
        }
        n = next;
      }
      const level = this.levels.next();
      if (level === undefined || (this.bid ? level.price < this.bound : level.price > this.bound)) {
        this.node = null;
        this.levels.clear();
        return null;
      }
      this.node = level.head;
    }
  }

  clear(): void {
    this.node = null;
    this.admits = undefined;
    this.levels.clear();
  }
}

/**
 * The ask queue of one walk: the asks earlier bids passed over (the "skipped" list, a singly
 * linked list over scratch arrays, in priority order), then the asks not yet reached (the ask
 * walk's cursor). Reused: `reset` before each walk, `clear` after.
 */
class AskQueue {
  private readonly skippedNodes: (OrderNode<BookOrder> | null)[] = [];
  private readonly skippedNext: number[] = [];
  private asks: SideWalk | undefined;
  private nSkipped = 0;
  private head = -1;
  private tail = -1;
  /** The cursor may still yield asks. */
  private asksLeft = true;
  /** The fill quantity of the ask `take` last returned. */
  q = 0n;

  reset(asks: SideWalk): void {
    this.asks = asks;
    this.nSkipped = 0;
    this.head = -1;
    this.tail = -1;
    this.asksLeft = true;
  }

  /** No ask is left for any later bid. */
  get empty(): boolean {
    return this.head === -1 && !this.asksLeft;
  }

  /**
   * The first ask in the queue `bid` is compatible with, within `maxProbes` tries, taken out of
   * the queue (its quantity in `q`); the asks tried before it keep their place. Null: none.
   */
  take(bid: BookOrder, maxProbes: number): OrderNode<BookOrder> | null {
    const { skippedNodes, skippedNext } = this;
    let probes = 0;
    for (let k = this.head, prev = -1; k !== -1 && probes < maxProbes; prev = k, k = skippedNext[k]!) {
      const candidate = skippedNodes[k]!;
      const a = candidate.order;
      const qq = bid.amount < a.amount ? bid.amount : a.amount;
      probes++;
      if (!compatible(bid, a, qq)) continue;
      this.q = qq;
      const after = skippedNext[k]!;
      if (prev === -1) this.head = after;
      else skippedNext[prev] = after;
      if (this.tail === k) this.tail = prev;
      skippedNodes[k] = null;
      return candidate;
    }
    while (this.asksLeft && probes < maxProbes) {
      const candidate = this.asks!.next();
      if (candidate === null) {
        this.asksLeft = false;
        return null;
      }
      const a = candidate.order;
      const qq = bid.amount < a.amount ? bid.amount : a.amount;
      probes++;
      if (compatible(bid, a, qq)) {
        this.q = qq;
        return candidate;
      }
      const k = this.nSkipped++;
      skippedNodes[k] = candidate;
      skippedNext[k] = -1;
      if (this.tail === -1) this.head = k;
      else skippedNext[this.tail] = k;
      this.tail = k;
    }
    return null;
  }

  clear(): void {
    for (let k = 0; k < this.nSkipped; k++) this.skippedNodes[k] = null;
    this.asks?.clear();
    this.asks = undefined;
  }
}

// Scratch reused across auctions (single threaded, synchronous).
const bidWalk = new SideWalk();
const askWalk = new SideWalk();
const askQueue = new AskQueue();
const matchedNodes: (OrderNode<BookOrder> | null)[] = [];

function checkAuctionOptions(options: AuctionOptions, maxPerBatch: number, maxProbes: number): void {
  if (options.priceScale <= 0n) throw new RangeError('priceScale must be positive');
  if (options.feeBps < 0n) throw new RangeError('feeBps must be non-negative');
  if (options.settlementBufferSlots < 0n) throw new RangeError('settlementBufferSlots must be non-negative');
  if (!Number.isInteger(maxPerBatch) || maxPerBatch < 1)
    throw new RangeError('maxMatchesPerBatch must be ≥ 1');
  if (!Number.isInteger(maxProbes) || maxProbes < 1) throw new RangeError('maxProbesPerOrder must be ≥ 1');
}

export function runAuction<O extends BookOrder>(
  book: OrderBook<O>,
  options: AuctionOptions,
): AuctionResult<O> {
  const { slot, tick, settlementBufferSlots } = options;
  const maxPerBatch = options.maxMatchesPerBatch ?? DEFAULT_MAX_MATCHES_PER_BATCH;
  const maxProbes = options.maxProbesPerOrder ?? DEFAULT_MAX_PROBES_PER_ORDER;
  checkAuctionOptions(options, maxPerBatch, maxProbes);

  let nextId = typeof options.nextMatchId === 'bigint' ? options.nextMatchId : undefined;
  const idSource = typeof options.nextMatchId === 'function' ? options.nextMatchId : undefined;
  const cutoff = slot + settlementBufferSlots;
  const clearing = clearBook(book, cutoff, tick, options.admits);
  const price = clearing.price;
  const matches: Match<O>[] = [];
  const leaving: LeavingOrder<O>[] = [];
  let nMatched = 0;

  if (price !== undefined) {
    const bids = bidWalk.reset(
      book.bidLevels as unknown as SortedLevels<BookOrder>,
      true,
      price,
      cutoff,
      tick,
      options.admits,
    );
    askQueue.reset(
      askWalk.reset(
        book.askLevels as unknown as SortedLevels<BookOrder>,
        false,
        price,
        cutoff,
        tick,
        options.admits,
      ),
    );
    try {
      for (let bidNode = bids.next(); bidNode !== null && !askQueue.empty; bidNode = bids.next()) {
        const bid = bidNode.order;
        const askNode = askQueue.take(bid, maxProbes);
        if (askNode === null) continue;
        const ask = askNode.order;
        const q = askQueue.q;
        const matchId = nextId !== undefined ? nextId++ : idSource!();
        const match = fill(matchId, bid as O, ask as O, q, price, options);
        matches.push(match);
        matchedNodes[nMatched++] = bidNode;
        matchedNodes[nMatched++] = askNode;
        if (bid.orderType === 'ioc' && q < bid.amount)
          leaving.push({ order: bid as O, reason: 'ioc_unfilled', match });
        if (ask.orderType === 'ioc' && q < ask.amount)
          leaving.push({ order: ask as O, reason: 'ioc_unfilled', match });
      }
    } finally {
      bids.clear();
      askQueue.clear();
    }
  }

  // Reserve after the walk, so that amounts and levels stayed fixed while walking.
  for (let k = 0; k < nMatched; k++) {
    book.reserveNode(matchedNodes[k] as unknown as OrderNode<O>);
    matchedNodes[k] = null;
  }
  dropUnfilledImmediates(book, tick, leaving);
  return {
    clearingPrice: price,
    executableVolume: clearing.volume,
    matches,
    batches: inBatches(matches, maxPerBatch),
    leaving,
    nextMatchId: nextId,
  };
}

/** One fill of q at the clearing price: the quote it costs and each side's fee. */
function fill<O extends BookOrder>(
  matchId: bigint,
  bid: O,
  ask: O,
  q: bigint,
  price: bigint,
  options: AuctionOptions,
): Match<O> {
  const quote = quoteForFill(q, price, options.priceScale);
  return {
    matchId,
    bid,
    ask,
    quantity: q,
    price,
    quote,
    buyerFee: feeOn(quote, options.feeBps),
    sellerFee: feeOn(q, options.feeBps),
  };
}

/** The matches in priority order, at most `maxPerBatch` to a settlement batch. */
function inBatches<O extends BookOrder>(matches: Match<O>[], maxPerBatch: number): Match<O>[][] {
  const batches: Match<O>[][] = [];
  for (let k = 0; k < matches.length; k += maxPerBatch) batches.push(matches.slice(k, k + maxPerBatch));
  return batches;
}

/** ioc/fok judged in this auction: those still resting got no fill and leave now. */
function dropUnfilledImmediates<O extends BookOrder>(
  book: OrderBook<O>,
  tick: number,
  leaving: LeavingOrder<O>[],
): void {
  for (const node of book.takeDueImmediates(tick)) {
    if (node.state !== NODE_RESTING) continue; // matched (partial ioc already reported) or reserved
    book.removeNode(node);
    leaving.push({
      order: node.order,
      reason: node.order.orderType === 'fok' ? 'fok_unfilled' : 'ioc_unfilled',
    });
  }
}
