import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { OrderBook } from './order-book.js';
import { ask, bid, resetSeq } from '../../test/fixtures/book.js';
import type { BookOrder } from './types.js';

beforeEach(resetSeq);

const ids = (orders: BookOrder[]) => orders.map((o) => o.seq);

describe('OrderBook', () => {
  it('adds, gets and removes orders', () => {
    const book = new OrderBook();
    const a = bid(100n, 5n);
    const b = ask(101n, 7n);
    book.add(a);
    book.add(b);
    expect(book.size).toBe(2);
    expect(book.get(a.orderId)).toBe(a);
    expect(book.has(b.orderId)).toBe(true);
    expect(book.levelCount('bid')).toBe(1);
    expect(book.levelCount('ask')).toBe(1);
    expect(book.remove(a.orderId)).toBe(a);
    expect(book.remove(a.orderId)).toBeUndefined();
    expect(book.get(a.orderId)).toBeUndefined();
    expect(book.size).toBe(1);
    expect(book.levelCount('bid')).toBe(0);
    expect(book.pendingOrders()).toEqual([b]);
  });

  it('rejects duplicates and malformed orders without changing the book', () => {
    const book = new OrderBook();
    const a = bid(100n, 5n);
    book.add(a);
    expect(() => book.add({ ...a })).toThrow(/already in the book/);
    expect(() => book.add(bid(100n, 0n))).toThrow(RangeError);
    expect(() => book.add(bid(0n, 1n))).toThrow(RangeError);
    expect(() => book.add(ask(-1n, 1n))).toThrow(RangeError);
    expect(() => book.add(ask(5n, 1n, { status: 'pending_settlement' }))).toThrow(/pending/);
    expect(book.size).toBe(1);
    book.add(ask(0n, 1n)); // an ask at 0 is fine
    expect(book.size).toBe(2);
  });

  it('lists resting orders by price, then arrival slot, then sequence', () => {
    const book = new OrderBook();
    // Added out of time order on purpose: priority must not depend on insertion order.
    const b1 = bid(100n, 1n, { arrivalSlot: 905n }); // seq 1
    const b2 = bid(100n, 1n, { arrivalSlot: 904n }); // seq 2
    const b3 = bid(101n, 1n); // seq 3
    const b4 = bid(100n, 1n, { arrivalSlot: 904n, seq: 0 }); // seq 0: before b2
    const a1 = ask(7n, 1n); // seq 5
    const a2 = ask(0n, 1n); // seq 6
    const a3 = ask(7n, 1n, { arrivalSlot: 899n }); // seq 7
    for (const o of [b1, b2, b3, b4, a1, a2, a3]) book.add(o);
    // bids: 101 first; at 100: slot 904 (seq 0, then seq 2), then slot 905.
    expect(book.pendingOrders('bid')).toEqual([b3, b4, b2, b1]);
    // asks: 0 first; at 7: slot 899 before slot 900.
    expect(book.pendingOrders('ask')).toEqual([a2, a3, a1]);
    expect(book.pendingOrders()).toEqual([b3, b4, b2, b1, a2, a3, a1]);
  });

  it('reserves and releases, keeping priority and applying a residual amount', () => {
    const book = new OrderBook();
    const first = bid(100n, 10n);
    const second = bid(100n, 10n);
    book.add(first);
    book.add(second);
    expect(book.reserve(first.orderId)).toBe(first);
    expect(first.status).toBe('pending_settlement');
    expect(book.reserve(first.orderId)).toBeUndefined(); // already reserved
    expect(book.pendingOrders()).toEqual([second]);
    expect(book.reservedOrders()).toEqual([first]);
    expect(book.pendingCount).toBe(1);
    expect(book.reservedSize).toBe(1);
    expect(() => book.release(first.orderId, 0n)).toThrow(RangeError);
    expect(() => book.release(first.orderId, 11n)).toThrow(RangeError);
    expect(book.release(first.orderId, 4n)).toBe(first);
    expect(first.amount).toBe(4n);
    expect(first.status).toBe('pending');
    expect(book.release(first.orderId)).toBeUndefined(); // not reserved any more
    // Back at its original place, ahead of the later order.
    expect(book.pendingOrders()).toEqual([first, second]);
    // Release into a level that was deleted while the order was out.
    book.reserve(second.orderId);
    book.reserve(first.orderId);
    expect(book.levelCount('bid')).toBe(0);
    book.release(second.orderId);
    book.release(first.orderId);
    expect(book.pendingOrders()).toEqual([first, second]);
    // A reserved order can be removed (settled in full, or an ioc remainder).
    book.reserve(first.orderId);
    expect(book.remove(first.orderId)).toBe(first);
    expect(book.reservedSize).toBe(0);
    expect(book.size).toBe(1);
  });

  it('expires resting orders at their slot, in (expiry, seq) order, leaving reserved ones', () => {
    const book = new OrderBook();
    const late = bid(100n, 1n, { expirySlot: 30n });
    const a = ask(105n, 1n, { expirySlot: 10n });
    const b = bid(90n, 1n, { expirySlot: 10n });
    const c = bid(95n, 1n, { expirySlot: 5n });
    const held = ask(110n, 1n, { expirySlot: 8n });
    for (const o of [late, a, b, c, held]) book.add(o);
    book.reserve(held.orderId);
    expect(book.expire(4n)).toEqual([]);
    // expiry ≤ 10: c (5), then a and b (10, by seq: a=2, b=3); held is reserved: untouched.
    expect(ids(book.expire(10n))).toEqual([c.seq, a.seq, b.seq]);
    expect(book.size).toBe(2);
    expect(book.get(held.orderId)).toBe(held);
    // Once released, the next call expires it.
    book.release(held.orderId);
    expect(book.expire(10n)).toEqual([held]);
    expect(book.expire(100n)).toEqual([late]);
    expect(book.size).toBe(0);
  });

  it('keeps many levels sorted through inserts and deletes (chunk splits, emptied levels)', () => {
    const book = new OrderBook();
    // 3,000 distinct prices in a scrambled order: 7919 is prime, so k → (k·7919 mod 3000) is a
    // permutation of 0..2999.
    const orders: BookOrder[] = [];
    for (let k = 0; k < 3000; k++) {
      const price = BigInt(((k * 7919) % 3000) + 1);
      const o = k % 2 === 0 ? bid(price, 1n) : ask(price, 1n);
      orders.push(o);
      book.add(o);
    }
    const check = () => {
      const bids = book.pendingOrders('bid').map((o) => o.priceLimit);
      const asks = book.pendingOrders('ask').map((o) => o.priceLimit);
      expect(bids).toEqual([...bids].sort((x, y) => (x > y ? -1 : 1)));
      expect(asks).toEqual([...asks].sort((x, y) => (x < y ? -1 : 1)));
      return bids.length + asks.length;
    };
    expect(check()).toBe(3000);
    for (let k = 0; k < 3000; k += 3) book.remove(orders[k]!.orderId);
    expect(check()).toBe(2000);
    expect(book.levelCount('bid') + book.levelCount('ask')).toBe(2000);
    for (let k = 0; k < 3000; k += 3) book.add({ ...orders[k]!, orderId: `x${k}` });
    expect(check()).toBe(3000);
  });

  it('agrees with a plain model under random operations (property)', () => {
    type Op =
      | { kind: 'add'; bid: boolean; price: number; expiry: number; slot: number }
      | { kind: 'remove' | 'reserve' | 'release'; pick: number; amount: number }
      | { kind: 'expire'; slot: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        bid: fc.boolean(),
        price: fc.integer({ min: 1, max: 6 }),
        expiry: fc.integer({ min: 1, max: 30 }),
        slot: fc.integer({ min: 0, max: 3 }),
      }),
      fc.record({
        kind: fc.constantFrom('remove' as const, 'reserve' as const, 'release' as const),
        pick: fc.nat(),
        amount: fc.integer({ min: 0, max: 3 }),
      }),
      fc.record({ kind: fc.constant('expire' as const), slot: fc.integer({ min: 0, max: 30 }) }),
    );
    // Priority: price (bids high first, asks low first), arrival slot, seq.
    const byPriority = (x: BookOrder, y: BookOrder) =>
      x.side !== y.side
        ? x.side === 'bid'
          ? -1
          : 1
        : x.priceLimit !== y.priceLimit
          ? x.priceLimit > y.priceLimit === (x.side === 'bid')
            ? -1
            : 1
          : x.arrivalSlot !== y.arrivalSlot
            ? x.arrivalSlot < y.arrivalSlot
              ? -1
              : 1
            : x.seq - y.seq;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        resetSeq();
        const book = new OrderBook();
        const model = new Map<string, BookOrder>();
        const all: BookOrder[] = [];
        for (const o of ops) {
          if (o.kind === 'add') {
            const order = (o.bid ? bid : ask)(BigInt(o.price), 4n, {
              expirySlot: BigInt(o.expiry),
              arrivalSlot: BigInt(o.slot),
            });
            book.add(order);
            model.set(order.orderId, order);
            all.push(order);
          } else if (o.kind === 'expire') {
            const due = [...model.values()]
              .filter((x) => x.status === 'pending' && x.expirySlot <= BigInt(o.slot))
              .sort((x, y) =>
                x.expirySlot !== y.expirySlot ? (x.expirySlot < y.expirySlot ? -1 : 1) : x.seq - y.seq,
              );
            for (const x of due) model.delete(x.orderId);
            expect(book.expire(BigInt(o.slot))).toEqual(due);
          } else if (all.length > 0) {
            const target = all[o.pick % all.length]!;
            const inModel = model.get(target.orderId);
            if (o.kind === 'remove') {
              expect(book.remove(target.orderId)).toBe(inModel);
              model.delete(target.orderId);
            } else if (o.kind === 'reserve') {
              const ok = inModel?.status === 'pending';
              expect(book.reserve(target.orderId)).toBe(ok ? target : undefined);
            } else {
              const ok = inModel?.status === 'pending_settlement';
              const amount = o.amount === 0 ? undefined : BigInt(Math.min(o.amount, Number(target.amount)));
              expect(book.release(target.orderId, amount)).toBe(ok ? target : undefined);
            }
          }
          const resting = [...model.values()].filter((x) => x.status === 'pending').sort(byPriority);
          expect(book.pendingOrders()).toEqual(resting);
          expect(book.size).toBe(model.size);
          expect(book.reservedSize).toBe(model.size - resting.length);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('bounds the ioc/fok waiting list when orders are cancelled before any auction', () => {
    const book = new OrderBook();
    for (let k = 0; k < 500; k++) {
      const o = bid(100n, 1n, { orderType: 'ioc' });
      book.add(o);
      book.remove(o.orderId);
    }
    expect(book.size).toBe(0);
    expect(book.immediates.length).toBeLessThanOrEqual(65);
  });
});
