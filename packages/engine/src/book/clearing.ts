/**
 * Uniform clearing price (DESIGN.md section 5).
 *
 * Candidates are every bid limit and every non-zero ask limit of the orders taking part. At a
 * candidate p: demand D(p) = Σ amount of bids with limit ≥ p, supply S(p) = Σ amount of asks
 * with limit ≤ p (asks at 0 always count), executable volume V(p) = min(D, S), imbalance
 * |D − S|. The price maximises V; ties go to the smallest imbalance, then to the lower price.
 * No price when the best V is 0.
 *
 * `sweepClearing` evaluates every candidate in one descending merge of the two sides' price
 * levels: O(levels). `clearingPriceOf` sorts a plain order list first: O(n log n). `clearBook`
 * reads the book's pre-sorted levels and only visits the levels where the sides cross (see
 * there).
 */
import type { Side } from '@nightjar/protocol';
import { eligibleVolume, LevelCursor, type Admits, type Level, type SortedLevels } from './levels.js';
import type { OrderBook } from './order-book.js';
import type { BookOrder, ClearingResult } from './types.js';

const NO_PRICE: ClearingResult = Object.freeze({ price: undefined, volume: 0n, demand: 0n, supply: 0n });

/**
 * The clearing rule over aggregated levels. `bidPrices` strictly descending, `askPrices`
 * strictly ascending and non-zero, every volume > 0 (first `nBids` / `nAsks` entries used);
 * `zeroAskVolume` is the volume of asks at price 0.
 *
 * Walks candidates from the highest down. D only grows on the way down (add the bids at the
 * candidate before evaluating it); S starts at the full supply and loses each ask level once the
 * walk has passed below it. A later (lower) candidate wins an exact tie on volume and imbalance.
 *
 * With `lo` / `hi`, only candidates c with lo < c ≤ hi are evaluated (the levels outside still
 * count in D and S): the window where a caller holding a partial book knows D and S exactly.
 */
export function sweepClearing(
  bidPrices: readonly bigint[],
  bidVolumes: readonly bigint[],
  nBids: number,
  askPrices: readonly bigint[],
  askVolumes: readonly bigint[],
  nAsks: number,
  zeroAskVolume: bigint,
  lo?: bigint,
  hi?: bigint,
): ClearingResult {
  let supply = zeroAskVolume;
  for (let j = 0; j < nAsks; j++) supply += askVolumes[j]!;
  let demand = 0n;
  let i = 0;
  let j = nAsks - 1;
  let bestPrice: bigint | undefined;
  let bestVolume = 0n;
  let bestImbalance = 0n;
  let bestDemand = 0n;
  let bestSupply = 0n;
  while (i < nBids || j >= 0) {
    const bp = i < nBids ? bidPrices[i]! : -1n;
    const ap = j >= 0 ? askPrices[j]! : -1n;
    const price = bp > ap ? bp : ap;
    if (bp === price) demand += bidVolumes[i++]!;
    if ((lo !== undefined && price <= lo) || (hi !== undefined && price > hi)) {
      if (ap === price) supply -= askVolumes[j--]!;
      continue;
    }
    const volume = demand < supply ? demand : supply;
    const imbalance = demand > supply ? demand - supply : supply - demand;
    if (volume > bestVolume || (volume === bestVolume && volume > 0n && imbalance <= bestImbalance)) {
      bestPrice = price;
      bestVolume = volume;
      bestImbalance = imbalance;
      bestDemand = demand;
      bestSupply = supply;
    }
    if (ap === price) supply -= askVolumes[j--]!;
  }
  if (bestPrice === undefined) return NO_PRICE;
  return { price: bestPrice, volume: bestVolume, demand: bestDemand, supply: bestSupply };
}

/**
 * The clearing price of a plain list of orders, all taking part (bids with a zero limit and
 * empty orders are ignored). O(n log n). For previews and tests; the matcher uses `clearBook`.
 */
export function clearingPriceOf(
  orders: readonly { side: Side; priceLimit: bigint; amount: bigint }[],
): ClearingResult {
  const bids = orders.filter((o) => o.side === 'bid' && o.amount > 0n && o.priceLimit > 0n);
  const asks = orders.filter((o) => o.side === 'ask' && o.amount > 0n);
  bids.sort((a, b) => (a.priceLimit > b.priceLimit ? -1 : a.priceLimit < b.priceLimit ? 1 : 0));
  asks.sort((a, b) => (a.priceLimit < b.priceLimit ? -1 : a.priceLimit > b.priceLimit ? 1 : 0));
  const bp: bigint[] = [];
  const bv: bigint[] = [];
  for (const o of bids) {
    if (bp.length > 0 && bp[bp.length - 1] === o.priceLimit) bv[bv.length - 1]! += o.amount;
    else {
      bp.push(o.priceLimit);
      bv.push(o.amount);
    }
  }
  const ap: bigint[] = [];
  const av: bigint[] = [];
  let zero = 0n;
  for (const o of asks) {
    if (o.priceLimit === 0n) zero += o.amount;
    else if (ap.length > 0 && ap[ap.length - 1] === o.priceLimit) av[av.length - 1]! += o.amount;
    else {
      ap.push(o.priceLimit);
      av.push(o.amount);
    }
  }
  return sweepClearing(bp, bv, bp.length, ap, av, ap.length, zero);
}

// Scratch reused across calls (the engine is single threaded and clearBook is synchronous).
const bidCursor = new LevelCursor<BookOrder>();
const askCursor = new LevelCursor<BookOrder>();

/** Advances to the next level with matchable volume: stores it in `out.level` (undefined at the end) and returns its volume. */
function nextLevel(
  cursor: LevelCursor<BookOrder>,
  cutoff: bigint,
  tick: number,
  out: { level?: Level<BookOrder> },
  admits: Admits | undefined,
): bigint {
  for (let level = cursor.next(); level !== undefined; level = cursor.next()) {
    const v = eligibleVolume(level, cutoff, tick, admits);
    if (v > 0n) {
      out.level = level;
      return v;
    }
  }
  out.level = undefined;
  return 0n;
}

/**
 * One side in the race of `clearBook` (scratch, reused): its current level (`price` < 0 when the
 * side is exhausted), that level's volume and what the race left of it, and the levels recorded
 * for the clearing rule so far (`prices`, `volumes`, the first `n` of them).
 */
class RaceSide {
  readonly slot: { level?: Level<BookOrder> } = {};
  readonly prices: bigint[] = [];
  readonly volumes: bigint[] = [];
  n = 0;
  price = -1n;
  volume = 0n;
  rest = 0n;
  touched = false;

  /** Stands at a level of this price and volume, untouched. */
  at(price: bigint, volume: bigint): void {
    this.price = price;
    this.volume = volume;
    this.rest = volume;
    this.touched = false;
  }

  /** Moves on to the cursor's next level with matchable volume. */
  advance(cursor: LevelCursor<BookOrder>, cutoff: bigint, tick: number, admits: Admits | undefined): void {
    const volume = nextLevel(cursor, cutoff, tick, this.slot, admits);
    this.at(this.slot.level?.price ?? -1n, volume);
  }

  /** Records the current level for the clearing rule. */
  record(): void {
    this.prices[this.n] = this.price;
    this.volumes[this.n++] = this.volume;
  }

  reset(): void {
    this.slot.level = undefined;
    this.n = 0;
    this.at(-1n, 0n);
  }
}

const bidSide = new RaceSide();
const askSide = new RaceSide();

/**
 * The clearing price of the book's orders that are matchable at this auction (status pending,
 * expirySlot > cutoff where cutoff = slot + settlement buffer, ioc/fok only in their arrival
 * batch), visiting only the levels where the two sides cross, not the whole region between the
 * best ask and the best bid (a bid far above the book would make that one whole side).
 *
 * 1. Volume race. Take bid levels from the top and ask levels from the bottom (asks at 0
 *    first) and consume volume pairwise, min of the two remainders, while the current bid price
 *    ≥ the current ask price. Q = consumed volume. Every level consumed from is "touched".
 *    Let nb be the first untouched bid level, nb2 the one after it, and na the first untouched
 *    non-zero ask level (levels without matchable volume do not count).
 * 2. Facts at the stop. D(nb) > Q ≥ S(nb): D(nb) counts every touched bid (their volume is
 *    ≥ Q) plus nb itself; every ask ≤ nb was fully consumed, because the race stopped either
 *    with no ask left or at a current ask priced above the current bid, which is ≥ nb, so
 *    S(nb) ≤ Q. Symmetrically S(na) > Q ≥ D(na).
 * 3. Candidates above na cannot win: for c > na, D(c) ≤ D(na) < S(na) ≤ S(c), so V(c) = D(c)
 *    ≤ V(na) and |D − S| at c ≥ that at na; a full tie goes to the lower price, na.
 *    Candidates c ≤ nb2 cannot win: there D(c) ≥ D(nb) + vol(nb2) > D(nb) > S(nb) ≥ S(c), so
 *    V(c) = S(c) ≤ V(nb) and, on equal volume, |D − S| is strictly larger than at nb.
 * 4. Inside (nb2, na] D and S are exact from the touched levels plus nb and na: every bid
 *    ≥ c > nb2 is nb or touched, every ask ≤ c ≤ na is na or touched. `sweepClearing` picks
 *    the best candidate there (this includes asks between nb2 and nb, which can tie nb).
 *
 * Cost: the touched levels plus three peeks. In a book that does not cross, one level per side.
 * With `admits` (only some orders take part), each of those levels' orders is visited once.
 */
export function clearBook<O extends BookOrder>(
  book: OrderBook<O>,
  cutoff: bigint,
  tick: number,
  admits?: Admits,
): ClearingResult {
  const asks = askCursor.reset(book.askLevels as unknown as SortedLevels<BookOrder>, true);
  const bids = bidCursor.reset(book.bidLevels as unknown as SortedLevels<BookOrder>, false);
  try {
    bidSide.reset();
    askSide.reset();
    let zero = 0n;
    let first = asks.next();
    if (first !== undefined && first.price === 0n) {
      zero = eligibleVolume(first, cutoff, tick, admits);
      first = undefined;
    }
    bidSide.advance(bids, cutoff, tick, admits);
    if (bidSide.price < 0n) return NO_PRICE;
    // The ask side starts at the asks at 0 (not a candidate), then non-zero levels.
    const firstVolume = first === undefined ? 0n : eligibleVolume(first, cutoff, tick, admits);
    if (zero > 0n) askSide.at(0n, zero);
    else if (first !== undefined && firstVolume > 0n) {
      askSide.slot.level = first;
      askSide.at(first.price, firstVolume);
    } else askSide.advance(asks, cutoff, tick, admits);
    race(bids, asks, cutoff, tick, admits);
    return clearingAfterRace(bids, asks, cutoff, tick, admits, zero);
  } finally {
    asks.clear();
    bids.clear();
    bidSide.slot.level = undefined;
    askSide.slot.level = undefined;
  }
}

/** Step 1: consume volume pairwise while the current bid is at or above the current ask. */
function race(
  bids: LevelCursor<BookOrder>,
  asks: LevelCursor<BookOrder>,
  cutoff: bigint,
  tick: number,
  admits: Admits | undefined,
): void {
  const bid = bidSide;
  const ask = askSide;
  while (bid.price >= 0n && ask.price >= 0n && bid.price >= ask.price) {
    const x = bid.rest < ask.rest ? bid.rest : ask.rest;
    bid.rest -= x;
    ask.rest -= x;
    if (!bid.touched) {
      bid.record();
      bid.touched = true;
    }
    if (!ask.touched) {
      if (ask.price > 0n) ask.record();
      ask.touched = true;
    }
    if (bid.rest === 0n) bid.advance(bids, cutoff, tick, admits);
    if (ask.rest === 0n) ask.advance(asks, cutoff, tick, admits);
  }
}

/** Steps 2–4: nb, nb2 (the first two untouched bid levels), na (the first untouched non-zero ask), then the rule. */
function clearingAfterRace(
  bids: LevelCursor<BookOrder>,
  asks: LevelCursor<BookOrder>,
  cutoff: bigint,
  tick: number,
  admits: Admits | undefined,
  zero: bigint,
): ClearingResult {
  const bid = bidSide;
  const ask = askSide;
  if (bid.touched && bid.price >= 0n) bid.advance(bids, cutoff, tick, admits);
  let lo: bigint | undefined;
  if (bid.price >= 0n) {
    bid.record();
    nextLevel(bids, cutoff, tick, bid.slot, admits);
    lo = bid.slot.level?.price;
  }
  if ((ask.touched || ask.price === 0n) && ask.price >= 0n) ask.advance(asks, cutoff, tick, admits);
  let hi: bigint | undefined;
  if (ask.price > 0n) {
    ask.record();
    hi = ask.price;
  }
  if (bid.n === 0) return NO_PRICE;
  return sweepClearing(bid.prices, bid.volumes, bid.n, ask.prices, ask.volumes, ask.n, zero, lo, hi);
}
