/**
 * Two demo traders over hundreds of rounds on a toy venue (no proofs, no ledger): notes as
 * amounts, orders backed the way `placeOrders` backs them, crossing orders filled at the resting
 * price with the fees of DESIGN.md section 4, change and trade-out notes returned, orders expiring.
 * The old demo (one 1-SOL order a round from 2-SOL notes, no merging, no refills) stalls here as
 * it did live: its base ends in notes of 1 SOL or less, which cannot back 1 SOL plus the fee, and
 * asks stop. The planner keeps both sides quoting and filling, with orders and notes bounded.
 */
import { feeOn, requiredCollateral } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import {
  notesToMerge,
  planRound,
  QUOTING,
  smallestRequired,
  type PlannedOrder,
  type Side,
} from './quote-plan.js';
import { market, SOL, USDC } from './test-market.js';

/** A seeded uniform [0, 1) generator, so every run is the same run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

interface Order {
  owner: number;
  side: Side;
  amount: bigint;
  price: bigint;
  /** Value of the note backing it. */
  backing: bigint;
  expires: number;
}

interface Wallet {
  /** Free notes per collateral side: `bid` = quote notes, `ask` = base notes. */
  free: Record<Side, bigint[]>;
  orders: Order[];
  /** What a refill deposits: the first deposit of each side again. */
  deposit: Record<Side, bigint>;
  asksPlaced: number[];
  refills: number;
  unbacked: number;
  maxFree: number;
}

/** Rounds an order lives: 30 s at a round every ~3 s. */
const LIFETIME = 10;

/** Backs `need` from `notes` as placeOrders does: a covering note (split), else up to 4 merged. */
function back(notes: bigint[], need: bigint): bigint | undefined {
  notes.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const one = notes.findIndex((n) => n >= need);
  const used = one >= 0 ? notes.splice(one, 1) : notes.slice(-4);
  const total = used.reduce((s, n) => s + n, 0n);
  if (total < need) return undefined;
  if (one < 0) notes.splice(notes.length - used.length, used.length);
  if (total > need) notes.push(total - need);
  return need;
}

/** Fills `taker` against the best crossing order of another owner, once (one fill per batch). */
function match(taker: Order, book: Order[], wallets: Wallet[]): boolean {
  const crossing = book
    .filter((o) => o.owner !== taker.owner && o.side !== taker.side)
    .filter((o) => (taker.side === 'bid' ? o.price <= taker.price : o.price >= taker.price))
    .sort((a, b) => (a.price < b.price ? -1 : 1) * (taker.side === 'bid' ? 1 : -1));
  const maker = crossing[0];
  if (!maker) return false;
  const q = taker.amount < maker.amount ? taker.amount : maker.amount;
  const quote = (q * maker.price) / market.price_scale;
  for (const o of [taker, maker]) {
    const w = wallets[o.owner]!;
    const given = o.side === 'bid' ? quote + feeOn(quote, market.fee_bps) : q + feeOn(q, market.fee_bps);
    const got = o.side === 'bid' ? q : quote;
    // A partial fill ends the order here (live, its change would stay locked to it until it ends).
    if (o.backing > given) w.free[o.side].push(o.backing - given);
    w.free[o.side === 'bid' ? 'ask' : 'bid'].push(got);
    w.orders = w.orders.filter((x) => x !== o);
  }
  book.splice(book.indexOf(maker), 1);
  return true;
}

type Planner = (
  w: Wallet,
  trader: number,
  round: number,
  mid: number,
  random: () => number,
) => PlannedOrder[];

/** The demo now: merge, plan, refill; the ladder backed from the notes. */
const ladder: Planner = (w, trader, round, mid, random) => {
  for (const side of ['bid', 'ask'] as const) {
    const sorted = [...w.free[side]].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const candidates = sorted.slice(0, 4).map((amount, i) => ({ commitment: String(i), amount }));
    const merge = notesToMerge(candidates, smallestRequired(side, market, mid), sorted.length);
    if (merge.length < 2) continue;
    const merged = merge.map((c) => candidates[Number(c)]!.amount);
    w.free[side] = [...sorted.slice(merge.length), merged.reduce((s, n) => s + n, 0n)];
  }
  const tied = (side: Side) => w.orders.filter((o) => o.side === side).reduce((s, o) => s + o.backing, 0n);
  const named = (side: Side) =>
    w.free[side]
      .map((amount, i) => ({ commitment: `${side}${i}`, amount }))
      .sort((a, b) => (a.amount < b.amount ? -1 : 1));
  const plan = planRound({
    market,
    mid,
    bid: { free: named('bid'), tied: tied('bid') },
    ask: { free: named('ask'), tied: tied('ask') },
    liveOrders: w.orders.length,
    random,
    ...(round === 0 ? { crossing: trader % 2 === 0 ? ('bid' as const) : ('ask' as const) } : {}),
  });
  for (const side of plan.refill) {
    w.free[side].push(w.deposit[side]);
    w.refills++;
  }
  return plan.orders;
};

/** The demo before: one 1-SOL order on a random side, backed by one note that covers it, or none. */
const oneSol: Planner = (w, _trader, _round, mid, random) => {
  const side: Side = random() < 0.5 ? 'bid' : 'ask';
  const offset = -0.2 + random() * 0.6;
  const price = BigInt(Math.round((side === 'bid' ? mid - offset : mid + offset) * 100)) * 10_000n;
  const required = requiredCollateral(side, SOL(1), price, market);
  if (!w.free[side].some((n) => n >= required)) return [];
  return [{ side, amount: SOL(1), price, required }];
};

/** Runs two traders for `rounds` rounds each; per round, the fills it saw. */
function simulate(planner: Planner, funding: Record<Side, bigint[]>, rounds: number) {
  const random = lcg(19);
  const wallets: Wallet[] = [0, 1].map(() => ({
    free: { bid: [...funding.bid], ask: [...funding.ask] },
    orders: [],
    deposit: { bid: funding.bid[0]!, ask: funding.ask[0]! },
    asksPlaced: [],
    refills: 0,
    unbacked: 0,
    maxFree: 0,
  }));
  const book: Order[] = [];
  const fills: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const mid = 150 + 2 * Math.sin(round / 20);
    let filled = 0;
    wallets.forEach((w, trader) => {
      for (const o of w.orders.filter((x) => x.expires <= round)) {
        w.free[o.side].push(o.backing);
        book.splice(book.indexOf(o), 1);
      }
      w.orders = w.orders.filter((x) => x.expires > round);
      for (const p of planner(w, trader, round, mid, random)) {
        const backing = back(w.free[p.side], p.required);
        if (backing === undefined) {
          w.unbacked++;
          continue;
        }
        if (p.side === 'ask') w.asksPlaced.push(round);
        const order: Order = { owner: trader, ...p, backing, expires: round + LIFETIME };
        if (match(order, book, wallets)) filled++;
        else {
          w.orders.push(order);
          book.push(order);
        }
      }
      w.maxFree = Math.max(w.maxFree, w.free.bid.length, w.free.ask.length);
    });
    fills.push(filled);
  }
  return { wallets, fills };
}

describe('two demo traders on a toy venue', () => {
  const last = (xs: number[], from: number) => xs.filter((r) => r >= from).length;

  it('the old demo stalls: its asks stop and so do its fills (issue 19, item 5)', () => {
    const { wallets, fills } = simulate(
      oneSol,
      { bid: Array(4).fill(USDC(400)), ask: Array(4).fill(SOL(2)) },
      400,
    );
    expect(wallets.every((w) => last(w.asksPlaced, 300) === 0)).toBe(true);
    expect(fills.slice(300).reduce((s, f) => s + f, 0)).toBe(0);
  });

  it('the ladder keeps both sides quoting and filling, with orders and notes bounded', () => {
    const { wallets, fills } = simulate(ladder, { bid: [USDC(1500)], ask: [SOL(10)] }, 400);
    expect(fills[0]).toBeGreaterThan(0); // the opening round crosses
    for (let from = 0; from < 400; from += 100) {
      expect(fills.slice(from, from + 100).reduce((s, f) => s + f, 0)).toBeGreaterThan(10);
      for (const w of wallets)
        expect(last(w.asksPlaced, from) - last(w.asksPlaced, from + 100)).toBeGreaterThan(10);
    }
    for (const w of wallets) {
      expect(w.unbacked).toBe(0); // never an order its notes cannot back
      expect(w.orders.length).toBeLessThanOrEqual(QUOTING.maxLiveOrders);
      expect(w.maxFree).toBeLessThanOrEqual(QUOTING.maxFreeNotes + QUOTING.levelsPerRound + 2);
      expect(w.refills).toBeLessThan(10);
    }
  });

  it('with little base, a trader that sells it all refills and goes on quoting asks', () => {
    const { wallets } = simulate(ladder, { bid: [USDC(1500)], ask: [SOL(1.1)] }, 200);
    const refilled = wallets.filter((w) => w.refills > 0);
    expect(refilled.length).toBeGreaterThan(0);
    for (const w of refilled) expect(last(w.asksPlaced, 100)).toBeGreaterThan(0);
  });
});
