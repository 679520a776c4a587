import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearBook, clearingPriceOf, sweepClearing } from './clearing.js';
import { OrderBook } from './order-book.js';
import { ask, bid, BUFFER, referenceClearing, resetSeq, SLOT, TICK } from '../../test/fixtures/book.js';
import type { BookOrder, ClearingResult } from './types.js';

beforeEach(resetSeq);

/** Clearing of a book holding `orders` (all eligible), checked against the plain-list version. */
function clear(orders: BookOrder[]): ClearingResult {
  const book = new OrderBook();
  for (const o of orders) book.add(o);
  const fromBook = clearBook(book, SLOT + BUFFER, TICK);
  expect(clearingPriceOf(orders)).toEqual(fromBook);
  return fromBook;
}

describe('clearing price', () => {
  it('picks the candidate with the largest executable volume', () => {
    // bids 110×5, 100×20; asks 90×10, 100×10
    // p=110: D=5,  S=20 → V=5
    // p=100: D=25, S=20 → V=20   ← max
    // p=90:  D=25, S=10 → V=10
    const r = clear([bid(110n, 5n), bid(100n, 20n), ask(90n, 10n), ask(100n, 10n)]);
    expect(r).toEqual({ price: 100n, volume: 20n, demand: 25n, supply: 20n });
  });

  it('breaks a volume tie by the smallest imbalance, then by the lower price', () => {
    // bids 104×10, 100×8; asks 96×10, 102×1
    // p=104: D=10, S=11 → V=10, |D−S|=1
    // p=102: D=10, S=11 → V=10, |D−S|=1
    // p=100: D=18, S=10 → V=10, |D−S|=8
    // p=96:  D=18, S=10 → V=10, |D−S|=8
    // All V=10; imbalance 1 beats 8 (so not the lowest price 96); 104 vs 102 → lower: 102.
    const r = clear([bid(104n, 10n), bid(100n, 8n), ask(96n, 10n), ask(102n, 1n)]);
    expect(r).toEqual({ price: 102n, volume: 10n, demand: 10n, supply: 11n });
  });

  it('takes the lower price when volume and imbalance tie', () => {
    // bid 100×10; ask 90×10. p=100: D=10,S=10; p=90: D=10,S=10 → both V=10, imbalance 0 → 90.
    expect(clear([bid(100n, 10n), ask(90n, 10n)]).price).toBe(90n);
  });

  it('has no price when the books do not cross', () => {
    // bid 90×10; ask 100×10. p=100: D=0 → V=0; p=90: S=0 → V=0.
    expect(clear([bid(90n, 10n), ask(100n, 10n)])).toEqual({
      price: undefined,
      volume: 0n,
      demand: 0n,
      supply: 0n,
    });
    expect(clear([bid(90n, 10n)]).price).toBeUndefined();
    expect(clear([ask(0n, 10n), ask(5n, 1n)]).price).toBeUndefined();
    expect(clear([]).price).toBeUndefined();
  });

  it('counts an ask at 0 at every price and never makes 0 a candidate', () => {
    // bids 100×10, 90×10; ask 0×15. Candidates 100 and 90 only.
    // p=100: D=10, S=15 → V=10; p=90: D=20, S=15 → V=15 ← max.
    expect(clear([bid(100n, 10n), bid(90n, 10n), ask(0n, 15n)])).toEqual({
      price: 90n,
      volume: 15n,
      demand: 20n,
      supply: 15n,
    });
    // A lone bid against asks at 0: the bid's limit is the only candidate.
    // p=100: D=5, S=3 → V=3.
    expect(clear([bid(100n, 5n), ask(0n, 3n)]).price).toBe(100n);
  });

  it('looks below the lowest non-zero ask when asks at 0 are present', () => {
    // ask 0×10, ask 100×50; bids 100×10, 90×1
    // p=100: D=10, S=60 → V=10, |D−S|=50
    // p=90:  D=11, S=10 → V=10, |D−S|=1  ← same volume, smaller imbalance
    expect(clear([ask(0n, 10n), ask(100n, 50n), bid(100n, 10n), bid(90n, 1n)]).price).toBe(90n);
    // Deep bids under a large ask at 0: ask 0×25; bids 100×10, 90×10, 80×10, 70×10
    // p=100: V=10; p=90: V=20; p=80: D=30,S=25 → V=25, |5|; p=70: D=40 → V=25, |15| → 80.
    expect(clear([ask(0n, 25n), bid(100n, 10n), bid(90n, 10n), bid(80n, 10n), bid(70n, 10n)]).price).toBe(
      80n,
    );
  });

  it('can settle on the first bid level below the crossing, not on a lower ask', () => {
    // bids 100×10, 95×1, 80×50; asks 70×10, 99×100
    // p=100: D=10, S=110 → V=10, |100|
    // p=99:  D=10, S=110 → V=10, |100|
    // p=95:  D=11, S=10  → V=10, |1|   ← best
    // p=80:  D=61, S=10  → V=10, |51|
    // p=70:  D=61, S=10  → V=10, |51|
    // (The book walk crosses 100 with 70, stops at 95 < 99, and must not credit 70 with D=11.)
    expect(clear([bid(100n, 10n), bid(95n, 1n), bid(80n, 50n), ask(70n, 10n), ask(99n, 100n)])).toEqual({
      price: 95n,
      volume: 10n,
      demand: 11n,
      supply: 10n,
    });
  });

  it('does not walk past the crossing when one order is far through the book', () => {
    // A bid at 1,000 against asks at 101..150 (1 each) and bids at 100 and below: the walk takes
    // the 1,000 bid (size 3) against asks 101, 102, 103, then stops at bid 100 < ask 104.
    // p=103: D=3, S=3 → V=3, |0| (all of 101..103 give V ≤ 3; above 103, |D−S| grows) → 103.
    const orders = [bid(1_000n, 3n)];
    for (let p = 101n; p <= 150n; p++) orders.push(ask(p, 1n));
    for (let p = 100n; p >= 51n; p--) orders.push(bid(p, 1n));
    expect(clear(orders)).toEqual({ price: 103n, volume: 3n, demand: 3n, supply: 3n });
  });

  it('leaves out orders inside the settlement buffer and reserved orders', () => {
    const book = new OrderBook();
    // slot 1000, buffer 20: expiry 1020 is inside the buffer (1020 > 1020 fails), 1021 is not.
    book.add(bid(100n, 10n, { expirySlot: SLOT + BUFFER }));
    book.add(ask(100n, 10n));
    expect(clearBook(book, SLOT + BUFFER, TICK).price).toBeUndefined();
    const edge = bid(95n, 4n, { expirySlot: SLOT + BUFFER + 1n });
    book.add(edge);
    // Only the 95×4 bid counts: p=100: D=0; p=95: D=4, S=0 → no price either.
    expect(clearBook(book, SLOT + BUFFER, TICK).price).toBeUndefined();
    book.add(ask(95n, 3n));
    // p=100: D=0 → 0; p=95: D=4, S=3 → 3.
    expect(clearBook(book, SLOT + BUFFER, TICK)).toEqual({ price: 95n, volume: 3n, demand: 4n, supply: 3n });
    book.reserve(edge.orderId);
    expect(clearBook(book, SLOT + BUFFER, TICK).price).toBeUndefined();
  });

  it('leaves out ioc/fok orders before their arrival batch', () => {
    const book = new OrderBook();
    book.add(bid(100n, 10n, { orderType: 'ioc', arrivalTick: TICK + 1 }));
    book.add(ask(100n, 10n));
    expect(clearBook(book, SLOT + BUFFER, TICK).price).toBeUndefined();
    expect(clearBook(book, SLOT + BUFFER, TICK + 1).price).toBe(100n);
  });

  it('sweeps aggregated levels directly', () => {
    // bids 10@7, 5@6; asks 3@0 (zero), 4@5, 9@6
    // p=7: D=10, S=16 → 10, |6|; p=6: D=15, S=16 → 15, |1| ← max; p=5: D=15, S=7 → 7.
    expect(sweepClearing([7n, 6n], [10n, 5n], 2, [5n, 6n], [4n, 9n], 2, 3n)).toEqual({
      price: 6n,
      volume: 15n,
      demand: 15n,
      supply: 16n,
    });
  });

  it('matches the rule evaluated at every candidate (property)', () => {
    const side = fc.record({
      // Price 0 is common (asks at 0); sizes span small and large so the crossing lands
      // anywhere relative to the levels.
      price: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 40 })),
      amount: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 100 })),
    });
    fc.assert(
      fc.property(fc.array(side, { maxLength: 30 }), fc.array(side, { maxLength: 30 }), (bs, as) => {
        resetSeq();
        const orders = [
          ...bs.map((b) => bid(BigInt(b.price + 1), BigInt(b.amount))),
          ...as.map((a) => ask(BigInt(a.price), BigInt(a.amount))),
        ];
        const expected = referenceClearing(orders);
        const r = clear(orders);
        expect(r).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('sees only eligible orders in a book with ineligible ones mixed in (property)', () => {
    const entry = fc.record({
      bid: fc.boolean(),
      price: fc.integer({ min: 0, max: 10 }),
      amount: fc.integer({ min: 1, max: 9 }),
      // 0: eligible, 1: inside the buffer, 2: reserved, 3: ioc of a later tick
      kind: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), (entries) => {
        resetSeq();
        const book = new OrderBook();
        const live: BookOrder[] = [];
        for (const e of entries) {
          const price = BigInt(e.bid ? e.price + 1 : e.price);
          const o = (e.bid ? bid : ask)(price, BigInt(e.amount), {
            expirySlot: e.kind === 1 ? SLOT + BUFFER - 3n : 5_000n,
            orderType: e.kind === 3 ? 'ioc' : 'limit',
            arrivalTick: e.kind === 3 ? TICK + 1 : TICK,
          });
          book.add(o);
          if (e.kind === 2) book.reserve(o.orderId);
          if (e.kind === 0) live.push(o);
        }
        expect(clearBook(book, SLOT + BUFFER, TICK)).toEqual(referenceClearing(live));
      }),
      { numRuns: 300 },
    );
  });
});
