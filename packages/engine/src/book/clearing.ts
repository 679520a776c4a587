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
const bidPrices: bigint[] = [];
const bidVolumes: bigint[] = [];
const askPrices: bigint[] = [];
const askVolumes: bigint[] = [];
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

const bidSlot: { level?: Level<BookOrder> } = {};
const askSlot: { level?: Level<BookOrder> } = {};

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
    let nBids = 0;
    let nAsks = 0;
    let zero = 0n;
    let first = asks.next();
    if (first !== undefined && first.price === 0n) {
      zero = eligibleVolume(first, cutoff, tick, admits);
      first = undefined;
    }
    // Current bid level (price bp, volume bv, remainder rb); bp < 0 when the side is exhausted.
    let bv = nextLevel(bids, cutoff, tick, bidSlot, admits);
    let bp = bidSlot.level?.price ?? -1n;
    if (bp < 0n) return NO_PRICE;
    let rb = bv;
    let bidTouched = false;
    // Current ask level: the asks at 0 first (not a candidate), then non-zero levels.
    let ap: bigint;
    let av: bigint;
    if (zero > 0n) {
      ap = 0n;
      av = zero;
    } else {
      if (first !== undefined) {
        av = eligibleVolume(first, cutoff, tick, admits);
        ap = first.price;
        if (av === 0n) {
          av = nextLevel(asks, cutoff, tick, askSlot, admits);
          ap = askSlot.level?.price ?? -1n;
        }
      } else {
        av = nextLevel(asks, cutoff, tick, askSlot, admits);
        ap = askSlot.level?.price ?? -1n;
      }
    }
    let ra = av;
    let askTouched = false;

    while (bp >= 0n && ap >= 0n && bp >= ap) {
      const x = rb < ra ? rb : ra;
      rb -= x;
      ra -= x;
      if (!bidTouched) {
        bidPrices[nBids] = bp;
        bidVolumes[nBids++] = bv;
        bidTouched = true;
      }
      if (!askTouched) {
        if (ap > 0n) {
          askPrices[nAsks] = ap;
          askVolumes[nAsks++] = av;
        }
        askTouched = true;
      }
      if (rb === 0n) {
        bv = nextLevel(bids, cutoff, tick, bidSlot, admits);
        bp = bidSlot.level?.price ?? -1n;
        rb = bv;
        bidTouched = false;
      }
      if (ra === 0n) {
        av = nextLevel(asks, cutoff, tick, askSlot, admits);
        ap = askSlot.level?.price ?? -1n;
        ra = av;
        askTouched = false;
      }
    }

    // nb, nb2: the first two untouched bid levels; na: the first untouched non-zero ask level.
    if (bidTouched && bp >= 0n) {
      bv = nextLevel(bids, cutoff, tick, bidSlot, admits);
      bp = bidSlot.level?.price ?? -1n;
    }
    let lo: bigint | undefined;
    if (bp >= 0n) {
      bidPrices[nBids] = bp;
      bidVolumes[nBids++] = bv;
      nextLevel(bids, cutoff, tick, bidSlot, admits);
      lo = bidSlot.level?.price;
    }
    if ((askTouched || ap === 0n) && ap >= 0n) {
      av = nextLevel(asks, cutoff, tick, askSlot, admits);
      ap = askSlot.level?.price ?? -1n;
    }
    let hi: bigint | undefined;
    if (ap > 0n) {
      askPrices[nAsks] = ap;
      askVolumes[nAsks++] = av;
      hi = ap;
    }
    if (nBids === 0) return NO_PRICE;
    return sweepClearing(bidPrices, bidVolumes, nBids, askPrices, askVolumes, nAsks, zero, lo, hi);
  } finally {
    asks.clear();
    bids.clear();
    bidSlot.level = undefined;
    askSlot.level = undefined;
  }
}
