/**
 * Matching benchmark: auction tick time on a book of 100,000 resting orders, memory per resting
 * order, and book operations per second. Returns numbers; the engine bench writes the report.
 *
 * The book: the demo SOL-USDC market around 150 USDC, limits mostly within 1% of the mid with a
 * tail to 20%, sizes 0.01 to 100 SOL (log-uniform), 10% with a min fill of half their size,
 * 2,000 trading keys, expiries spread over the 4,500-slot lifetime; a share of the orders sits
 * up to 0.2% through the mid (some of the asks at 0). Every timed tick starts with cold CPU
 * caches (a 64 MiB buffer is walked first), as it would after the engine's other work between
 * two slots; with warm caches the same ticks are several times faster.
 *
 * Memory: heap used after a forced GC, before and after creating the orders, then after adding
 * them to a book; divided by the order count. The total includes the order objects, their hex
 * strings and bigints, and the benchmark's array holding them (8 B per order).
 *
 * Run directly: `npx tsx packages/engine/bench/matching.bench.ts [orders]`. Memory figures need a
 * callable GC: `global.gc` when node runs with --expose-gc, otherwise the flag is switched on at
 * run time (v8.setFlagsFromString) and `gc` taken from a fresh VM context.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { OrderBook, runAuction, type AuctionOptions, type BookOrder } from '../src/book/index.js';

/** The demo SOL-USDC market: 150 USDC per SOL, price_scale 1e9, tick 1000, fee 10 bps. */
const PRICE_SCALE = 1_000_000_000n;
const TICK_SIZE = 1_000n;
const MID = 150_000_000n;
const FEE_BPS = 10n;
const SLOT = 1_000_000n;
const BUFFER = 20n;

export interface MatchingBenchOptions {
  /** Resting orders (default 100,000). */
  orders?: number;
  /** Ticks timed per scenario (default 15). */
  samples?: number;
  /** Share of orders that cross the mid (default 0.02). */
  crossing?: number;
  seed?: number;
}

export interface TickFigures {
  medianMs: number;
  p90Ms: number;
  maxMs: number;
  matches: number;
  clearingPrice: bigint | undefined;
}

export interface MatchingBenchDetails {
  restingOrders: number;
  bidLevels: number;
  askLevels: number;
  /** First tick on the generated book, 2% of its orders through the mid (restored after each sample). */
  crossingTick: TickFigures;
  /** Same book once drained: nothing crosses (the usual tick). */
  quietTick: TickFigures;
  /** Drained book plus 400 new orders per tick (1,000 orders/s at 400 ms slots), 10% crossing. */
  steadyTick: TickFigures;
  /** Quiet book plus a small bid at 2× mid and a small ask at mid / 2 (market-style orders). */
  outlierTick: TickFigures;
  /** A second book with 10% of its orders crossing: thousands of matches in one tick. */
  heavyCrossingTick: TickFigures;
  /** Heap per resting order: the order object (with its hex strings) plus the book's share. */
  bytesPerOrder: number;
  /** The book's own share (node, level, map and heap entries), orders already allocated. */
  bookBytesPerOrder: number;
  gcAvailable: boolean;
  addPerSecond: number;
  removePerSecond: number;
  /** One add plus one remove on a full book, counted as two operations. */
  churnPerSecond: number;
  /** reserve + release (a match and a failed settlement), counted as two operations. */
  reserveReleasePerSecond: number;
}

/** Small deterministic PRNG (mulberry32): the same book every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

class OrderFactory {
  private seq = 0;
  private readonly keys: string[];
  constructor(
    private readonly random: () => number,
    private readonly crossing: number,
  ) {
    // 2,000 traders; a trader's orders share a trading key.
    this.keys = Array.from({ length: 2_000 }, () => hex(32));
  }

  make(arrivalSlot: bigint, crossing = this.crossing): BookOrder {
    const r = this.random;
    const side = r() < 0.5 ? 'bid' : 'ask';
    let ticks: bigint;
    if (r() < crossing) {
      ticks = -BigInt(1 + Math.floor(r() * 300)); // through the mid by up to 0.2%
    } else {
      // Resting away from the mid: mostly within 1%, a tail to 20%.
      ticks = BigInt(1 + Math.min(30_000, Math.floor(-Math.log(1 - r()) * 1_500)));
    }
    let priceLimit = side === 'bid' ? MID - ticks * TICK_SIZE : MID + ticks * TICK_SIZE;
    if (side === 'ask' && ticks < 0n && r() < 0.05) priceLimit = 0n; // some market sells
    // 0.01 to 100 SOL, log-uniform, in 0.001 SOL steps.
    const amount = BigInt(Math.round(10 ** (7 + r() * 4) / 1e6)) * 1_000_000n;
    const seq = ++this.seq;
    return {
      seq,
      orderId: hex(16),
      accountId: `acct-${seq % 2_000}`,
      tradingKey: this.keys[seq % this.keys.length]!,
      ownerCommitment: hex(32),
      side,
      orderType: 'limit',
      amount,
      priceLimit,
      minFillSize: r() < 0.1 ? amount / 2n : 0n,
      // Live at SLOT (the engine expires the rest every slot): (SLOT, SLOT + 4500], so about
      // 0.4% sit inside the settlement buffer.
      expirySlot: SLOT + 1n + BigInt(Math.floor(r() * 4_500)),
      arrivalSlot,
      arrivalTick: 0,
      noteAmount: amount,
      status: 'pending',
    };
  }
}

/** The benchmark's resting book: `n` orders around the SOL-USDC mid, `crossing` share across it. */
export function generateOrders(n: number, seed = 42, crossing = 0.02): BookOrder[] {
  const factory = new OrderFactory(rng(seed), crossing);
  return Array.from({ length: n }, (_, k) => factory.make(SLOT - BigInt(n - k) / 100n));
}

function getGc(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === 'function') return g;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

function auctionOptions(tick: number): AuctionOptions {
  return {
    slot: SLOT,
    tick,
    priceScale: PRICE_SCALE,
    feeBps: FEE_BPS,
    settlementBufferSlots: BUFFER,
    nextMatchId: 1n,
  };
}

const WARM_UP_TICKS = 5;
// Larger than the last-level cache: walking it before a tick evicts the book, as the engine's
// other work between two slots (intake, proof checks, settlement) would.
const evict = new Float64Array(8 * 1024 * 1024); // 64 MiB
function evictCaches(): void {
  for (let i = 0; i < evict.length; i += 8) evict[i]! += 1;
}

/**
 * Times `samples` ticks, each with cold caches, after a few warm-up ticks (JIT). `prepare` runs
 * untimed before each tick; `undo` runs untimed after it with the matched orders (e.g. releasing
 * them so the next sample sees the same book).
 */
function timeTicks(
  book: OrderBook,
  samples: number,
  undo: (matched: BookOrder[]) => void,
  prepare: () => void = () => {},
): TickFigures {
  const times: number[] = [];
  let matches = 0;
  let clearingPrice: bigint | undefined;
  for (let k = 0; k < samples + WARM_UP_TICKS; k++) {
    prepare();
    evictCaches();
    const t0 = performance.now();
    const r = runAuction(book, auctionOptions(k));
    const dt = performance.now() - t0;
    if (k >= WARM_UP_TICKS) times.push(dt);
    matches = r.matches.length;
    clearingPrice = r.clearingPrice;
    const matched: BookOrder[] = [];
    for (const m of r.matches) matched.push(m.bid, m.ask);
    undo(matched);
  }
  return {
    medianMs: percentile(times, 0.5),
    p90Ms: percentile(times, 0.9),
    maxMs: Math.max(...times),
    matches,
    clearingPrice,
  };
}

const releaseAll = (book: OrderBook) => (matched: BookOrder[]) => {
  for (const o of matched) book.release(o.orderId);
};

export function benchMatchingDetailed(options: MatchingBenchOptions = {}): MatchingBenchDetails {
  const n = options.orders ?? 100_000;
  const samples = options.samples ?? 15;
  const factory = new OrderFactory(rng(options.seed ?? 42), options.crossing ?? 0.02);
  const gc = getGc();

  // Memory: orders first, then the book on top of them.
  gc?.();
  const h0 = process.memoryUsage().heapUsed;
  const orders: BookOrder[] = [];
  for (let k = 0; k < n; k++) orders.push(factory.make(SLOT - BigInt(n - k) / 100n));
  gc?.();
  const h1 = process.memoryUsage().heapUsed;
  let book = new OrderBook();
  for (const o of orders) book.add(o);
  gc?.();
  const h2 = process.memoryUsage().heapUsed;
  const bytesPerOrder = (h2 - h0) / n;
  const bookBytesPerOrder = (h2 - h1) / n;
  const bidLevels = book.levelCount('bid');
  const askLevels = book.levelCount('ask');

  // The heavy tick: the generated book with its crossing orders, restored after every sample.
  const crossingTick = timeTicks(book, samples, releaseAll(book));

  // Drain: ticks until nothing trades, matched orders settled in full (removed).
  for (let t = 0; t < 1_000; t++) {
    const r = runAuction(book, auctionOptions(1_000 + t));
    if (r.matches.length === 0) break;
    for (const m of r.matches) {
      book.remove(m.bid.orderId);
      book.remove(m.ask.orderId);
    }
  }
  // Top the book back up to n resting orders that do not cross.
  while (book.pendingCount < n) book.add(factory.make(SLOT, 0));
  const quietTick = timeTicks(book, samples, releaseAll(book));

  // Steady state: 400 new orders per tick (10% crossing), matched ones settle in full.
  let arrivals: BookOrder[] = [];
  const steadyTick = timeTicks(
    book,
    samples,
    (matched) => {
      for (const o of matched) book.remove(o.orderId);
      while (book.pendingCount > n) book.remove(arrivals.pop()!.orderId);
    },
    () => {
      arrivals = [];
      for (let k = 0; k < 400; k++) {
        const o = factory.make(SLOT, 0.1);
        arrivals.push(o);
        book.add(o);
      }
    },
  );

  // Market-style orders far through the book: the clearing walk must not visit the whole side.
  const hi = { ...factory.make(SLOT, 0), side: 'bid' as const, priceLimit: MID * 2n, amount: 1_000_000n };
  const lo = { ...factory.make(SLOT, 0), side: 'ask' as const, priceLimit: MID / 2n, amount: 1_000_000n };
  book.add(hi);
  book.add(lo);
  const outlierTick = timeTicks(book, samples, releaseAll(book));
  book.remove(hi.orderId);
  book.remove(lo.orderId);

  // A much more crossed book: 10% of the orders through the mid.
  book = new OrderBook();
  const heavyFactory = new OrderFactory(rng((options.seed ?? 42) + 1), 0.1);
  for (let k = 0; k < n; k++) book.add(heavyFactory.make(SLOT));
  const heavyCrossingTick = timeTicks(book, Math.max(3, Math.floor(samples / 3)), releaseAll(book));

  // Operations per second on a fresh book.
  book = new OrderBook();
  let t0 = performance.now();
  for (const o of orders) {
    o.status = 'pending';
    book.add(o);
  }
  const addPerSecond = n / ((performance.now() - t0) / 1000);

  const extra = Array.from({ length: 50_000 }, () => factory.make(SLOT));
  t0 = performance.now();
  for (let k = 0; k < extra.length; k++) {
    book.add(extra[k]!);
    book.remove(orders[(k * 7_919) % n]!.orderId);
  }
  const churnPerSecond = (2 * extra.length) / ((performance.now() - t0) / 1000);

  const live = book.pendingOrders();
  t0 = performance.now();
  for (const o of live) {
    book.reserve(o.orderId);
    book.release(o.orderId);
  }
  const reserveReleasePerSecond = (2 * live.length) / ((performance.now() - t0) / 1000);

  // Remove everything, in a scrambled order.
  const ids = live.map((o) => o.orderId);
  for (let k = ids.length - 1; k > 0; k--) {
    const j = (k * 7_919) % (k + 1);
    [ids[k], ids[j]] = [ids[j]!, ids[k]!];
  }
  t0 = performance.now();
  for (const id of ids) book.remove(id);
  const removePerSecond = ids.length / ((performance.now() - t0) / 1000);

  return {
    restingOrders: n,
    bidLevels,
    askLevels,
    crossingTick,
    quietTick,
    steadyTick,
    outlierTick,
    heavyCrossingTick,
    bytesPerOrder,
    bookBytesPerOrder,
    gcAvailable: gc !== undefined,
    addPerSecond,
    removePerSecond,
    churnPerSecond,
    reserveReleasePerSecond,
  };
}

/**
 * Flat numbers for the engine benchmark's table. Keys starting with `tick` are tick times in ms
 * (target < 10 ms); the headline is `tickMedianMs`, the first tick on a 100k book with 2% of
 * its orders through the mid. Tick times are taken with cold caches.
 */
export interface MatchingBenchResult {
  restingOrders: number;
  priceLevels: number;
  tickMedianMs: number;
  tickP90Ms: number;
  tickMaxMs: number;
  matchesInThatTick: number;
  tickQuietMedianMs: number;
  tickSteadyMedianMs: number;
  tickMarketOrdersMedianMs: number;
  tickHeavyCrossingMedianMs: number;
  matchesInHeavyCrossingTick: number;
  bytesPerOrder: number;
  bookBytesPerOrder: number;
  addPerSecond: number;
  removePerSecond: number;
  churnPerSecond: number;
  reserveReleasePerSecond: number;
  gcAvailable: boolean;
}

export function benchMatching(options: MatchingBenchOptions = {}): MatchingBenchResult {
  return flatten(benchMatchingDetailed(options));
}

function flatten(d: MatchingBenchDetails): MatchingBenchResult {
  return {
    restingOrders: d.restingOrders,
    priceLevels: d.bidLevels + d.askLevels,
    tickMedianMs: d.crossingTick.medianMs,
    tickP90Ms: d.crossingTick.p90Ms,
    tickMaxMs: d.crossingTick.maxMs,
    matchesInThatTick: d.crossingTick.matches,
    tickQuietMedianMs: d.quietTick.medianMs,
    tickSteadyMedianMs: d.steadyTick.medianMs,
    tickMarketOrdersMedianMs: d.outlierTick.medianMs,
    tickHeavyCrossingMedianMs: d.heavyCrossingTick.medianMs,
    matchesInHeavyCrossingTick: d.heavyCrossingTick.matches,
    bytesPerOrder: d.bytesPerOrder,
    bookBytesPerOrder: d.bookBytesPerOrder,
    addPerSecond: d.addPerSecond,
    removePerSecond: d.removePerSecond,
    churnPerSecond: d.churnPerSecond,
    reserveReleasePerSecond: d.reserveReleasePerSecond,
    gcAvailable: d.gcAvailable,
  };
}

function formatTick(name: string, t: TickFigures): string {
  return `${name.padEnd(14)} median ${t.medianMs.toFixed(2)} ms, p90 ${t.p90Ms.toFixed(2)} ms, max ${t.maxMs.toFixed(2)} ms, ${t.matches} matches at ${t.clearingPrice ?? 'no price'}`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const orders = process.argv[2] !== undefined ? Number(process.argv[2]) : undefined;
  const r = benchMatchingDetailed({ orders });
  const k = (x: number) => `${Math.round(x).toLocaleString('en-US')}/s`;
  console.log(`resting orders ${r.restingOrders} (${r.bidLevels} bid levels, ${r.askLevels} ask levels)`);
  console.log(formatTick('crossing tick', r.crossingTick));
  console.log(formatTick('quiet tick', r.quietTick));
  console.log(formatTick('steady tick', r.steadyTick));
  console.log(formatTick('outlier tick', r.outlierTick));
  console.log(formatTick('heavy crossing', r.heavyCrossingTick));
  console.log(
    `memory per resting order: ${Math.round(r.bytesPerOrder)} B total, ${Math.round(r.bookBytesPerOrder)} B book` +
      (r.gcAvailable ? '' : ' (no GC available: figures include garbage)'),
  );
  console.log(
    `add ${k(r.addPerSecond)}, remove ${k(r.removePerSecond)}, add+remove churn ${k(r.churnPerSecond)}, ` +
      `reserve+release ${k(r.reserveReleasePerSecond)}`,
  );
}
