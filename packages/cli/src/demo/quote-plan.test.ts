import fc from 'fast-check';
import { requiredCollateral } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import {
  levelSplit,
  notesToMerge,
  planRound,
  priceLimit,
  QUOTING,
  smallestRequired,
  type FreeNote,
  type PlannedOrder,
  type RoundInput,
} from './quote-plan.js';
import { market, SOL, USDC } from './test-market.js';

let counter = 0;
const notes = (...amounts: bigint[]): FreeNote[] =>
  amounts
    .map((amount) => ({ commitment: `c${counter++}`, amount }))
    .sort((a, b) => (a.amount < b.amount ? -1 : 1));
const sum = (xs: readonly bigint[]) => xs.reduce((s, x) => s + x, 0n);
const ofSide = (orders: PlannedOrder[], side: 'bid' | 'ask') => orders.filter((o) => o.side === side);

function input(over: Partial<RoundInput> = {}): RoundInput {
  return {
    market,
    mid: 150,
    bid: { free: notes(USDC(1500)), tied: 0n },
    ask: { free: notes(SOL(10)), tied: 0n },
    liveOrders: 0,
    random: () => 0.5,
    ...over,
  };
}

describe('planRound: the stall of issue 19 (a leftover that cannot back a 1 SOL ask)', () => {
  it('a 0.999 SOL change note quotes a smaller ask it can back, never a 1 SOL one', () => {
    const { orders, refill } = planRound(input({ ask: { free: notes(SOL(0.999)), tied: 0n } }));
    const asks = ofSide(orders, 'ask');
    expect(asks.length).toBeGreaterThan(0);
    expect(asks.every((o) => o.amount < SOL(1))).toBe(true);
    expect(sum(asks.map((o) => o.required))).toBeLessThanOrEqual(SOL(0.999));
    expect(asks[0]!.amount).toBe(SOL(0.75)); // 0.75075 with the fee, out of 0.999
    expect(refill).toEqual([]);
  });

  it('a leftover below the smallest order is refilled from the faucet, and no ask is placed on it', () => {
    const { orders, refill } = planRound(input({ ask: { free: notes(SOL(0.2)), tied: 0n } }));
    expect(ofSide(orders, 'ask')).toEqual([]);
    expect(refill).toEqual(['ask']);
    expect(ofSide(orders, 'bid').length).toBeGreaterThan(0); // the other side keeps quoting
  });

  it('several 1 SOL notes (bids filled) still back 1 SOL asks: placeOrders merges them', () => {
    const { orders } = planRound(
      input({
        bid: { free: notes(USDC(100)), tied: 0n },
        ask: { free: notes(SOL(1), SOL(1), SOL(1)), tied: 0n },
      }),
    );
    const asks = ofSide(orders, 'ask');
    // 1.001 from two merged (0.999 left), 1.001 from that and the third (0.998 left), then 0.75.
    expect(asks.map((o) => o.amount)).toEqual([SOL(1), SOL(1), SOL(0.75)]);
    expect(sum(asks.map((o) => o.required))).toBeLessThanOrEqual(SOL(3));
  });

  it('a side running short sizes its deeper levels down to what is left', () => {
    const { orders } = planRound(
      input({ bid: { free: notes(USDC(250)), tied: 0n }, ask: { free: notes(SOL(1.8)), tied: 0n } }),
    );
    // 1.8 SOL: 1.001, then 0.75075 of the 0.799 left. 250 USDC: 150.05, then 99.95 backs 0.5 SOL.
    expect(ofSide(orders, 'ask').map((o) => o.amount)).toEqual([SOL(1), SOL(0.75)]);
    expect(ofSide(orders, 'bid').map((o) => o.amount)).toEqual([SOL(1), SOL(0.5)]);
  });

  it('base busy in live asks is not refilled: it comes back when they fill or expire', () => {
    const { orders, refill } = planRound(input({ ask: { free: [], tied: SOL(2) }, liveOrders: 2 }));
    expect(refill).toEqual([]);
    expect(ofSide(orders, 'ask')).toEqual([]);
  });

  it('an empty quote side is refilled the same way', () => {
    const { orders, refill } = planRound(input({ bid: { free: notes(USDC(20)), tied: 0n } }));
    expect(refill).toEqual(['bid']);
    expect(ofSide(orders, 'bid')).toEqual([]);
    expect(ofSide(orders, 'ask').length).toBeGreaterThan(0);
  });
});

describe('planRound: levels, prices, sizes', () => {
  it('balanced holdings: two levels a side of 1 SOL each, 0.25 apart, on the tick', () => {
    const { orders } = planRound(input());
    const bids = ofSide(orders, 'bid');
    const asks = ofSide(orders, 'ask');
    expect([bids.length, asks.length]).toEqual([2, 2]);
    expect(bids.map((o) => o.amount)).toEqual([SOL(1), SOL(1)]);
    expect(asks.map((o) => o.amount)).toEqual([SOL(1), SOL(1)]);
    expect(bids[0]!.price - bids[1]!.price).toBe(priceLimit(0.25, market));
    expect(asks[1]!.price - asks[0]!.price).toBe(priceLimit(0.25, market));
    expect(asks[0]!.price).toBeGreaterThan(bids[0]!.price); // its own quotes never cross
    for (const o of orders) expect(o.price % market.tick_size).toBe(0n);
    // random 0.5: the ladder is centred on the price, 0.1 either side.
    expect(bids[0]!.price).toBe(priceLimit(149.9, market));
    expect(asks[0]!.price).toBe(priceLimit(150.1, market));
  });

  it('rebalances: more levels on the side it holds more of, valued at the reference price', () => {
    const baseHeavy = planRound(input({ bid: { free: notes(USDC(300)), tied: 0n } }));
    expect([ofSide(baseHeavy.orders, 'bid').length, ofSide(baseHeavy.orders, 'ask').length]).toEqual([1, 3]);
    const quoteHeavy = planRound(input({ ask: { free: notes(SOL(2)), tied: 0n } }));
    expect(ofSide(quoteHeavy.orders, 'bid').length).toBe(3);
    expect(ofSide(quoteHeavy.orders, 'ask').length).toBe(1);
    expect(levelSplit(4, 1500, 1500)).toEqual({ bid: 2, ask: 2 });
    expect(levelSplit(4, 0, 1500)).toEqual({ bid: 1, ask: 3 });
    expect(levelSplit(1, 10, 20)).toEqual({ bid: 0, ask: 1 });
    expect(levelSplit(0, 10, 20)).toEqual({ bid: 0, ask: 0 });
  });

  it('quotes no more levels than the round is given (fewer when proofs are slow)', () => {
    expect(planRound(input({ levels: 1 })).orders).toHaveLength(1);
    expect(planRound(input({ levels: 2, crossing: 'ask' })).orders.map((o) => o.side)).toEqual([
      'ask',
      'bid',
    ]);
  });

  it('caps live orders: fewer levels near the cap, none at it', () => {
    expect(planRound(input({ liveOrders: QUOTING.maxLiveOrders })).orders).toEqual([]);
    expect(planRound(input({ liveOrders: QUOTING.maxLiveOrders - 2 })).orders).toHaveLength(2);
  });

  it('the skew moves the whole ladder, up to maxSkew either way', () => {
    const up = planRound(input({ random: () => 1 - Number.EPSILON }));
    const down = planRound(input({ random: () => 0 }));
    expect(ofSide(up.orders, 'bid')[0]!.price).toBe(priceLimit(150 + QUOTING.maxSkew - 0.1, market));
    expect(ofSide(down.orders, 'ask')[0]!.price).toBe(priceLimit(150 - QUOTING.maxSkew + 0.1, market));
  });
});

describe('planRound: a crossing round', () => {
  it('a crossing bid crosses the price on the quote deposit as it is; the asks rest above', () => {
    const round = input({ crossing: 'bid' });
    const [first, ...rest] = planRound(round).orders;
    expect(first).toMatchObject({
      side: 'bid',
      amount: SOL(1),
      note: round.bid.free[0]!.commitment,
      crossing: true,
    });
    expect(first!.price).toBe(priceLimit(150.3, market));
    expect(rest.map((o) => o.side)).toEqual(['ask', 'ask', 'ask']);
    expect(rest.every((o) => o.price > priceLimit(150.3, market) && o.note === undefined)).toBe(true);
  });

  it('a crossing ask crosses below the price; the bids rest below', () => {
    const round = input({ crossing: 'ask' });
    const [first, ...rest] = planRound(round).orders;
    expect(first).toMatchObject({
      side: 'ask',
      amount: SOL(1),
      price: priceLimit(149.7, market),
      note: round.ask.free[0]!.commitment,
    });
    expect(rest.map((o) => o.side)).toEqual(['bid', 'bid', 'bid']);
    expect(rest.every((o) => o.price < priceLimit(149.7, market))).toBe(true);
  });
});

describe('planRound: never more than the notes back (any wallet)', () => {
  const amounts = (unit: (x: number) => bigint, max: number) =>
    fc.array(
      fc.integer({ min: 1, max: max * 1000 }).map((x) => unit(x / 1000)),
      { maxLength: 12 },
    );
  it('per side, the orders need at most the free value; refill exactly when nothing could back the smallest order', () => {
    fc.assert(
      fc.property(
        amounts(USDC, 400),
        amounts(SOL, 3),
        fc.bigInt({ min: 0n, max: USDC(300) }),
        fc.bigInt({ min: 0n, max: SOL(2) }),
        fc.integer({ min: 0, max: QUOTING.maxLiveOrders }),
        fc.double({ min: 140, max: 160, noNaN: true }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.constantFrom(undefined, 'bid' as const, 'ask' as const),
        (quote, base, quoteTied, baseTied, liveOrders, mid, r, crossing) => {
          const plan = planRound({
            market,
            mid,
            bid: { free: notes(...quote), tied: quoteTied },
            ask: { free: notes(...base), tied: baseTied },
            liveOrders,
            random: () => r,
            ...(crossing ? { crossing } : {}),
          });
          expect(plan.orders.length).toBeLessThanOrEqual(
            Math.min(QUOTING.levelsPerRound, QUOTING.maxLiveOrders - liveOrders),
          );
          for (const [side, free, tied] of [
            ['bid', quote, quoteTied],
            ['ask', base, baseTied],
          ] as const) {
            const mine = ofSide(plan.orders, side);
            expect(sum(mine.map((o) => o.required))).toBeLessThanOrEqual(sum(free));
            for (const o of mine) {
              expect(o.required).toBe(requiredCollateral(side, o.amount, o.price, market));
              expect(o.price % market.tick_size).toBe(0n);
            }
            expect(plan.refill.includes(side)).toBe(sum(free) + tied < smallestRequired(side, market, mid));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('notesToMerge', () => {
  const dust = SOL(0.1);
  it('merges 3 or more notes too small to back an order; 2 are left alone', () => {
    const three = notes(SOL(0.01), SOL(0.02), SOL(0.03), SOL(5));
    expect(notesToMerge(three, dust, 4)).toEqual(three.slice(0, 3).map((n) => n.commitment));
    expect(notesToMerge(notes(SOL(0.01), SOL(0.02), SOL(5)), dust, 3)).toEqual([]);
  });

  it('merges the smallest when a mint holds too many notes, dust or not', () => {
    const four = notes(SOL(1), SOL(1), SOL(2), SOL(3));
    expect(notesToMerge(four, dust, QUOTING.maxFreeNotes)).toEqual([]);
    expect(notesToMerge(four, dust, QUOTING.maxFreeNotes + 1)).toEqual(four.map((n) => n.commitment));
  });
});
