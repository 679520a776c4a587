import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAuction } from './matcher.js';
import { OrderBook } from './order-book.js';
import { BUFFER, order, opts, referenceClearing, resetSeq, SLOT, TICK } from '../../test/fixtures/book.js';
import type { AuctionResult, BookOrder, Match } from './types.js';

const spec = fc.record({
  bid: fc.boolean(),
  price: fc.integer({ min: 0, max: 12 }),
  amount: fc.integer({ min: 1, max: 20 }),
  // Mostly no minimum; sometimes one up to the amount range.
  minFill: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 20 }) },
  ),
  // Few keys and owners, drawn independently: self-trades by either are common.
  key: fc.integer({ min: 0, max: 4 }),
  owner: fc.integer({ min: 0, max: 4 }),
  type: fc.constantFrom('limit', 'limit', 'limit', 'ioc', 'fok'),
  insideBuffer: fc.integer({ min: 0, max: 7 }).map((k) => k === 0),
  reserved: fc.integer({ min: 0, max: 7 }).map((k) => k === 0),
  laterTick: fc.integer({ min: 0, max: 5 }).map((k) => k === 0),
  arrivalSlot: fc.integer({ min: 0, max: 3 }),
});
type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

const market = fc.record({
  priceScale: fc.constantFrom(1n, 1_000n, 1_000_000_000n),
  feeBps: fc.integer({ min: 0, max: 150 }).map(BigInt),
  // Scales amounts so the fee and quote arithmetic sees large values too.
  unit: fc.constantFrom(1n, 1_000_003n, 987_654_321_123n),
  // Scales prices likewise (keeps 0 at 0).
  tick: fc.constantFrom(1n, 1_000n, 150_000_000n),
  batch: fc.integer({ min: 1, max: 16 }),
});

function build(specs: Spec[], unit: bigint, tick: bigint): OrderBook {
  resetSeq();
  const book = new OrderBook();
  for (const s of specs) {
    const price = BigInt(s.bid ? s.price + 1 : s.price) * tick;
    const o = order(s.bid ? 'bid' : 'ask', price, BigInt(s.amount) * unit, {
      minFillSize: BigInt(s.minFill) * unit,
      tradingKey: `key-${s.key}`,
      ownerCommitment: `owner-${s.owner}`,
      orderType: s.type as BookOrder['orderType'],
      expirySlot: s.insideBuffer ? SLOT + BUFFER : SLOT + BUFFER + 1n,
      arrivalTick: s.laterTick ? TICK + 1 : TICK,
      arrivalSlot: BigInt(900 + s.arrivalSlot),
    });
    book.add(o);
    if (s.reserved) book.reserve(o.orderId);
  }
  return book;
}

const eligibleBefore = (o: BookOrder) =>
  o.status === 'pending' &&
  o.expirySlot > SLOT + BUFFER &&
  (o.orderType === 'limit' || o.arrivalTick <= TICK);

const floorDiv = (a: bigint, b: bigint) => a / b; // operands are non-negative

function checkMatchValue(m: Match, priceScale: bigint, feeBps: bigint) {
  const q = m.quantity;
  // quote = floor(q·p / scale): quote·scale ≤ q·p < (quote + 1)·scale.
  expect(m.quote * priceScale <= q * m.price).toBe(true);
  expect(q * m.price < (m.quote + 1n) * priceScale).toBe(true);
  // fees: fee·10000 ≤ base·bps < (fee + 1)·10000.
  expect(m.buyerFee * 10_000n <= m.quote * feeBps && m.quote * feeBps < (m.buyerFee + 1n) * 10_000n).toBe(
    true,
  );
  expect(m.sellerFee * 10_000n <= q * feeBps && q * feeBps < (m.sellerFee + 1n) * 10_000n).toBe(true);
  // Value per mint: what the buyer gives (quote + fee) is what the seller and the protocol get;
  // what the seller gives (q + fee) is what the buyer and the protocol get. Each side's
  // collateral note (nominal + fee at its own limit, DESIGN.md section 4) covers what it gives.
  const bidNominal = floorDiv(m.bid.amount * m.bid.priceLimit, priceScale);
  expect(m.quote + m.buyerFee <= bidNominal + floorDiv(bidNominal * feeBps, 10_000n)).toBe(true);
  expect(q + m.sellerFee <= m.ask.amount + floorDiv(m.ask.amount * feeBps, 10_000n)).toBe(true);
}

const pairKeys = (r: AuctionResult) => r.matches.map((m) => `${m.bid.seq}/${m.ask.seq}/${m.quantity}`);

describe('runAuction (property)', () => {
  it('keeps every allocation rule on random books', () => {
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 40 }), market, (specs, mk) => {
        const book = build(specs, mk.unit, mk.tick);
        const before = [...book.pendingOrders(), ...book.reservedOrders()];
        const statusBefore = new Map(before.map((o) => [o.orderId, o.status]));
        const amountBefore = new Map(before.map((o) => [o.orderId, o.amount]));
        const eligibleSet = new Set(before.filter(eligibleBefore).map((o) => o.orderId));
        const reference = referenceClearing(before.filter(eligibleBefore));

        const r = runAuction(
          book,
          opts({ priceScale: mk.priceScale, feeBps: mk.feeBps, maxMatchesPerBatch: mk.batch }),
        );

        expect(r.clearingPrice).toBe(reference.price);
        expect(r.executableVolume).toBe(reference.volume);
        const price = r.clearingPrice;
        const seen = new Set<string>();
        let total = 0n;
        for (const m of r.matches) {
          const { bid, ask } = m;
          // Each order at most once, on its own side, eligible, and nothing over-filled.
          expect(seen.has(bid.orderId) || seen.has(ask.orderId)).toBe(false);
          seen.add(bid.orderId);
          seen.add(ask.orderId);
          expect([bid.side, ask.side]).toEqual(['bid', 'ask']);
          expect(eligibleSet.has(bid.orderId) && eligibleSet.has(ask.orderId)).toBe(true);
          const ba = amountBefore.get(bid.orderId)!;
          const aa = amountBefore.get(ask.orderId)!;
          expect(m.quantity).toBe(ba < aa ? ba : aa);
          expect(m.quantity > 0n).toBe(true);
          // Uniform price within both limits (an ask at 0 takes any price).
          expect(m.price).toBe(price);
          expect(bid.priceLimit >= m.price && ask.priceLimit <= m.price).toBe(true);
          // min_fill_size, fok and self-trade rules.
          expect(m.quantity >= bid.minFillSize && m.quantity >= ask.minFillSize).toBe(true);
          if (bid.orderType === 'fok') expect(m.quantity).toBe(ba);
          if (ask.orderType === 'fok') expect(m.quantity).toBe(aa);
          expect(bid.tradingKey === ask.tradingKey || bid.ownerCommitment === ask.ownerCommitment).toBe(
            false,
          );
          checkMatchValue(m, mk.priceScale, mk.feeBps);
          total += m.quantity;
          // Matched orders are reserved, with their amounts untouched.
          expect([bid.status, ask.status]).toEqual(['pending_settlement', 'pending_settlement']);
          expect([bid.amount, ask.amount]).toEqual([ba, aa]);
        }
        expect(total <= r.executableVolume).toBe(true);

        // Batches: consecutive chunks of at most the batch size, ids consecutive.
        expect(r.batches.flat()).toEqual(r.matches);
        for (const b of r.batches) expect(b.length >= 1 && b.length <= mk.batch).toBe(true);
        expect(r.matches.map((m) => m.matchId)).toEqual(r.matches.map((_, k) => 1n + BigInt(k)));

        // Nothing left unpaired that could have traded (books here are far below the probe cap).
        if (price !== undefined) {
          const open = before.filter((o) => eligibleSet.has(o.orderId) && !seen.has(o.orderId));
          for (const b of open.filter((o) => o.side === 'bid' && o.priceLimit >= price)) {
            for (const a of open.filter((o) => o.side === 'ask' && o.priceLimit <= price)) {
              const q = b.amount < a.amount ? b.amount : a.amount;
              const ok =
                q >= b.minFillSize &&
                q >= a.minFillSize &&
                (b.orderType !== 'fok' || q === b.amount) &&
                (a.orderType !== 'fok' || q === a.amount) &&
                b.tradingKey !== a.tradingKey &&
                b.ownerCommitment !== a.ownerCommitment;
              expect(ok).toBe(false);
            }
          }
        }

        // Who leaves: ioc/fok judged now (arrival tick ≤ TICK, resting before) without a fill;
        // and a partially filled ioc, with its match.
        const expectedLeaving = new Map<string, string>();
        for (const o of before) {
          const judged =
            o.orderType !== 'limit' && o.arrivalTick <= TICK && statusBefore.get(o.orderId) === 'pending';
          if (!judged) continue;
          const m = r.matches.find((x) => x.bid === o || x.ask === o);
          if (m === undefined) expectedLeaving.set(o.orderId, `${o.orderType}_unfilled`);
          else if (m.quantity < amountBefore.get(o.orderId)!) expectedLeaving.set(o.orderId, 'ioc_unfilled+');
        }
        const leaving = new Map(r.leaving.map((l) => [l.order.orderId, l.reason + (l.match ? '+' : '')]));
        expect(leaving).toEqual(expectedLeaving);
        for (const l of r.leaving) {
          if (l.match) expect(l.match.bid === l.order || l.match.ask === l.order).toBe(true);
          expect(book.get(l.order.orderId)).toBe(l.match ? l.order : undefined);
        }

        // Everyone else is untouched and still in the book.
        for (const o of before) {
          if (seen.has(o.orderId) || expectedLeaving.has(o.orderId)) continue;
          expect(book.get(o.orderId)).toBe(o);
          expect(o.status).toBe(statusBefore.get(o.orderId));
        }
        expect(book.size).toBe(before.length - r.leaving.filter((l) => !l.match).length);

        // Deterministic: the same book built again gives the same allocation.
        const again = runAuction(
          build(specs, mk.unit, mk.tick),
          opts({ priceScale: mk.priceScale, feeBps: mk.feeBps, maxMatchesPerBatch: mk.batch }),
        );
        expect(pairKeys(again)).toEqual(pairKeys(r));
      }),
      { numRuns: 300 },
    );
  });
});
