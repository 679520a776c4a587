import { requiredCollateral } from '@nightjar/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { runAuction } from './matcher.js';
import { OrderBook } from './order-book.js';
import { ask, bid, BUFFER, opts, resetSeq, SLOT, SOL_USDC, TICK } from '../../test/fixtures/book.js';
import type { AuctionOptions, AuctionResult, BookOrder } from './types.js';

beforeEach(resetSeq);

function auction(
  orders: BookOrder[],
  extra: Partial<AuctionOptions> = {},
): { book: OrderBook; r: AuctionResult } {
  const book = new OrderBook();
  for (const o of orders) book.add(o);
  return { book, r: runAuction(book, opts(extra)) };
}

/** Matches as [bid seq, ask seq, quantity] for compact expectations. */
const pairs = (r: AuctionResult) => r.matches.map((m) => [m.bid.seq, m.ask.seq, m.quantity]);

describe('runAuction: economics', () => {
  it('prices a SOL-USDC fill with floor rounding on quote and both fees', () => {
    // price_scale 1e9, fee 10 bps, tick 1000. Bid 1.234567891 SOL at 150.000 USDC, ask 2 SOL at
    // 149.999. Candidates 150_000_000 and 149_999_000 both give D = 1_234_567_891,
    // S = 2_000_000_000 (V equal, imbalance equal) → the lower, 149_999_000.
    const b = bid(150_000_000n, 1_234_567_891n);
    const a = ask(149_999_000n, 2_000_000_000n);
    const { r } = auction([b, a], { priceScale: SOL_USDC.priceScale, feeBps: SOL_USDC.feeBps });
    expect(r.clearingPrice).toBe(149_999_000n);
    expect(r.matches).toHaveLength(1);
    const m = r.matches[0]!;
    expect(m.quantity).toBe(1_234_567_891n);
    // quote = floor(1_234_567_891 × 149_999_000 / 1e9) = floor(185_183_949.082109) = 185_183_949
    expect(m.quote).toBe(185_183_949n);
    // buyer fee = floor(185_183_949 × 10 / 10_000) = floor(185_183.949) = 185_183
    expect(m.buyerFee).toBe(185_183n);
    // seller fee = floor(1_234_567_891 × 10 / 10_000) = floor(1_234_567.891) = 1_234_567
    expect(m.sellerFee).toBe(1_234_567n);
    expect(m.price).toBe(149_999_000n);
    // The notes cover what each side gives: the bid's required collateral is
    // floor(1_234_567_891 × 150_000_000 / 1e9) = 185_185_183 + fee 185_185 = 185_370_368
    // ≥ 185_183_949 + 185_183 = 185_369_132; the ask's is 2_000_000_000 + 2_000_000 ≥ q + fee.
    const market = { price_scale: SOL_USDC.priceScale, fee_bps: SOL_USDC.feeBps };
    expect(requiredCollateral('bid', b.amount, b.priceLimit, market)).toBe(185_370_368n);
    expect(m.quote + m.buyerFee).toBe(185_369_132n);
    expect(requiredCollateral('ask', 2_000_000_000n, a.priceLimit, market) >= m.quantity + m.sellerFee).toBe(
      true,
    );
  });

  it('fills an ask at 0 at the bid side clearing price', () => {
    // bid 1 SOL at 150 USDC, ask 0.5 SOL at 0 (any price): 150_000_000 is the only candidate.
    // quote = 500_000_000 × 150_000_000 / 1e9 = 75_000_000; buyer fee 75_000; seller fee 500_000.
    const { r } = auction([bid(150_000_000n, 1_000_000_000n), ask(0n, 500_000_000n)], {
      priceScale: SOL_USDC.priceScale,
      feeBps: SOL_USDC.feeBps,
    });
    expect(r.clearingPrice).toBe(150_000_000n);
    expect(r.matches.map((m) => [m.quantity, m.quote, m.buyerFee, m.sellerFee])).toEqual([
      [500_000_000n, 75_000_000n, 75_000n, 500_000n],
    ]);
  });

  it('does nothing when the books do not cross', () => {
    const { book, r } = auction([bid(99n, 5n), ask(100n, 5n)]);
    expect(r).toEqual({
      clearingPrice: undefined,
      executableVolume: 0n,
      matches: [],
      batches: [],
      leaving: [],
      nextMatchId: 1n,
    });
    expect(book.pendingCount).toBe(2);
  });

  it('lets a bid pay at most its limit and an ask receive at least its limit', () => {
    // bids 105×10, 95×10; asks 100×10, 90×5
    // p=105: D=10, S=15 → 10, |5|;  p=100: D=10, S=15 → 10, |5|;  p=95: D=20, S=5 → 5;  p=90: 5
    // → tie 105/100 → P = 100. Bids ≥ 100: only 105. Asks ≤ 100 in priority: 90 then 100.
    // The 105 bid takes the 90 ask for min(10, 5) = 5 at 100; the 95 bid never trades at 100.
    const { book, r } = auction([bid(105n, 10n), bid(95n, 10n), ask(100n, 10n), ask(90n, 5n)]);
    expect(r.clearingPrice).toBe(100n);
    expect(pairs(r)).toEqual([[1, 4, 5n]]);
    expect(book.pendingOrders().map((o) => o.seq)).toEqual([2, 3]);
  });
});

describe('runAuction: allocation', () => {
  it('allocates bids by price, then arrival slot, then sequence', () => {
    // bids: #1 101; #2 100 slot 905; #3 100 slot 904; #4 100 slot 904 (added before #3)
    // three asks at 100 ×1. p=101: D=1, S=3 → 1; p=100: D=4, S=3 → 3 → P=100.
    // Priority: #1 (101), #3 (slot 904, seq 3), #4 (slot 904, seq 4), #2 (slot 905).
    const b1 = bid(101n, 1n);
    const b2 = bid(100n, 1n, { arrivalSlot: 905n });
    const b3 = bid(100n, 1n, { arrivalSlot: 904n });
    const b4 = bid(100n, 1n, { arrivalSlot: 904n });
    const asks = [ask(100n, 1n), ask(100n, 1n), ask(100n, 1n)]; // #5, #6, #7
    const { book, r } = auction([b4, b2, ...asks, b1, b3]);
    expect(r.clearingPrice).toBe(100n);
    expect(pairs(r)).toEqual([
      [1, 5, 1n],
      [3, 6, 1n],
      [4, 7, 1n],
    ]);
    expect(book.pendingOrders()).toEqual([b2]);
  });

  it('allocates asks by price with 0 first, then arrival slot, then sequence', () => {
    // asks: #1 100 slot 901; #2 100 slot 900; #3 99; #4 0. Bids #5..#7: 100 ×1.
    // p=100: D=3, S=4 → 3, |1|; p=99: D=3, S=2 → 2 → P=100.
    // Ask priority: #4 (0), #3 (99), #2 (100, slot 900), #1 (100, slot 901).
    const { book, r } = auction([
      ask(100n, 1n, { arrivalSlot: 901n }),
      ask(100n, 1n, { arrivalSlot: 900n }),
      ask(99n, 1n),
      ask(0n, 1n),
      bid(100n, 1n),
      bid(100n, 1n),
      bid(100n, 1n),
    ]);
    expect(r.clearingPrice).toBe(100n);
    expect(pairs(r)).toEqual([
      [5, 4, 1n],
      [6, 3, 1n],
      [7, 2, 1n],
    ]);
    expect(book.pendingOrders().map((o) => o.seq)).toEqual([1]);
  });

  it('gives an order at most one fill per batch', () => {
    // bid 100×100; asks 3 × (100×10). V(100) = min(100, 30) = 30, but the bid's note pays for one
    // fill only: one match of 10; the other asks rest.
    const { book, r } = auction([bid(100n, 100n), ask(100n, 10n), ask(100n, 10n), ask(100n, 10n)]);
    expect(r.executableVolume).toBe(30n);
    expect(pairs(r)).toEqual([[1, 2, 10n]]);
    expect(book.pendingOrders().map((o) => o.seq)).toEqual([3, 4]);
    expect(book.reservedOrders().map((o) => o.seq)).toEqual([1, 2]);
  });

  it('reserves matched orders until the engine releases or removes them', () => {
    // bid 100×10 vs ask 100×4 → fill 4. Next tick: both reserved, nothing trades.
    const b = bid(100n, 10n);
    const a = ask(100n, 4n);
    const { book, r } = auction([b, a]);
    expect(pairs(r)).toEqual([[1, 2, 4n]]);
    expect([b.status, a.status]).toEqual(['pending_settlement', 'pending_settlement']);
    expect(runAuction(book, opts({ tick: TICK + 1 })).matches).toEqual([]);
    // Settlement confirmed: the ask is done, the bid rests again with 10 − 4 = 6.
    book.remove(a.orderId);
    book.release(b.orderId, 6n);
    book.add(ask(100n, 9n));
    const next = runAuction(book, opts({ tick: TICK + 2 }));
    expect(pairs(next)).toEqual([[1, 3, 6n]]);
  });

  it('cuts matches into batches of at most 16 with consecutive ids', () => {
    // 40 bids and 40 asks of 1 at 100 → 40 one-to-one matches → batches of 16, 16, 8.
    const orders: BookOrder[] = [];
    for (let k = 0; k < 40; k++) orders.push(bid(100n, 1n), ask(100n, 1n));
    const { r } = auction(orders, { nextMatchId: 1000n });
    expect(r.matches).toHaveLength(40);
    expect(r.batches.map((b) => b.length)).toEqual([16, 16, 8]);
    expect(r.batches.flat()).toEqual(r.matches);
    expect(r.matches.map((m) => m.matchId)).toEqual(Array.from({ length: 40 }, (_, k) => 1000n + BigInt(k)));
    expect(r.nextMatchId).toBe(1040n);
  });

  it('takes a smaller batch size and a match id function', () => {
    resetSeq();
    let id = 7n;
    const orders: BookOrder[] = [];
    for (let k = 0; k < 5; k++) orders.push(bid(100n, 1n), ask(100n, 1n));
    const { r } = auction(orders, { maxMatchesPerBatch: 2, nextMatchId: () => (id += 2n) });
    expect(r.batches.map((b) => b.map((m) => m.matchId))).toEqual([[9n, 11n], [13n, 15n], [17n]]);
    expect(r.nextMatchId).toBeUndefined();
  });
});

describe('runAuction: skips', () => {
  it('skips a pair below the bid min_fill_size and tries the next ask', () => {
    // bids #1 100×10 (min fill 8), #2 100×5; asks #3 95×5, #4 96×10
    // p=100: D=15, S=15 → 15, |0|; p=96: D=15, S=15 → 15, |0|; p=95: D=15, S=5 → 5 → P=96.
    // #1 meets #3 first: q = min(10, 5) = 5 < 8 → skip; #4: q = 10 ✓. #2 takes #3: q = 5.
    const { r } = auction([bid(100n, 10n, { minFillSize: 8n }), bid(100n, 5n), ask(95n, 5n), ask(96n, 10n)]);
    expect(r.clearingPrice).toBe(96n);
    expect(pairs(r)).toEqual([
      [1, 4, 10n],
      [2, 3, 5n],
    ]);
  });

  it('keeps passed-over asks queued, in order, for later bids', () => {
    // All at 100 (the only candidate). Bids #1 5 (min 5), #2 1, #3 5 (min 5), #4 1;
    // asks #5 1, #6 5, #7 1, #8 5.
    // #1: #5 q=1 < 5 skip (queued), #6 q=5 ✓.   #2: queued #5 ✓ (queue now empty).
    // #3: #7 q=1 < 5 skip (queued), #8 q=5 ✓.   #4: queued #7 ✓.
    const min5 = { minFillSize: 5n };
    const { r } = auction([
      bid(100n, 5n, min5),
      bid(100n, 1n),
      bid(100n, 5n, min5),
      bid(100n, 1n),
      ask(100n, 1n),
      ask(100n, 5n),
      ask(100n, 1n),
      ask(100n, 5n),
    ]);
    expect(pairs(r)).toEqual([
      [1, 6, 5n],
      [2, 5, 1n],
      [3, 8, 5n],
      [4, 7, 1n],
    ]);
  });

  it('skips a pair below the ask min_fill_size', () => {
    // ask #1 100×10 (min fill 6); bids #2 100×4, #3 100×8. P = 100 (D=12, S=10).
    // #2: q = 4 < 6 → skip, no other ask → no fill. #3: q = 8 ✓.
    const { book, r } = auction([ask(100n, 10n, { minFillSize: 6n }), bid(100n, 4n), bid(100n, 8n)]);
    expect(pairs(r)).toEqual([[3, 1, 8n]]);
    expect(book.pendingOrders().map((o) => o.seq)).toEqual([2]);
  });

  it('skips self-trades by trading key', () => {
    // #1 bid and #3 ask share a key. P = 100 (D=10, S=10).
    // #1 skips #3, takes #4; #2 takes #3.
    const { r } = auction([
      bid(100n, 5n, { tradingKey: 'K' }),
      bid(100n, 5n),
      ask(100n, 5n, { tradingKey: 'K' }),
      ask(100n, 5n),
    ]);
    expect(pairs(r)).toEqual([
      [1, 4, 5n],
      [2, 3, 5n],
    ]);
  });

  it('skips self-trades by owner commitment, even across trading keys', () => {
    const { r } = auction([
      bid(100n, 5n, { ownerCommitment: 'O' }),
      bid(100n, 5n),
      ask(100n, 5n, { ownerCommitment: 'O' }),
      ask(100n, 5n),
    ]);
    expect(pairs(r)).toEqual([
      [1, 4, 5n],
      [2, 3, 5n],
    ]);
    // Alone against itself: a price exists (V = 5) but no fill, and both orders keep resting.
    resetSeq();
    const solo = auction([bid(100n, 5n, { ownerCommitment: 'O' }), ask(100n, 5n, { ownerCommitment: 'O' })]);
    expect(solo.r.clearingPrice).toBe(100n);
    expect(solo.r.executableVolume).toBe(5n);
    expect(solo.r.matches).toEqual([]);
    expect(solo.book.pendingCount).toBe(2);
  });

  it('does not match orders inside the settlement buffer', () => {
    // slot 1000, buffer 20. Bid #1 expires at 1020 (1020 > 1020 fails: out), #2 at 1021 (in).
    // Ask 100×10: D = 5 (only #2), S = 10 → V = 5; #2 fills 5.
    const { book, r } = auction([
      bid(100n, 5n, { expirySlot: SLOT + BUFFER }),
      bid(100n, 5n, { expirySlot: SLOT + BUFFER + 1n }),
      ask(100n, 10n),
    ]);
    expect(r.executableVolume).toBe(5n);
    expect(pairs(r)).toEqual([[2, 3, 5n]]);
    expect(book.pendingOrders().map((o) => o.seq)).toEqual([1]);
  });
  it('leaves the orders admits refuses out of the price and the walk; they rest', () => {
    // F's bid at 200 would set the price (200) if it took part: D(200) = 5, S(200) = 2, V = 2;
    // without it the book clears at 100 (bids #2 and #3 at 100, asks #4 at 90 and #5 at 100).
    const f = { accountId: 'F' };
    const { book, r } = auction(
      [bid(200n, 5n, f), bid(100n, 1n), bid(100n, 1n), ask(90n, 1n), ask(100n, 1n)],
      {
        admits: (o) => o.accountId !== 'F',
      },
    );
    expect(r.clearingPrice).toBe(100n);
    expect(pairs(r)).toEqual([
      [2, 4, 1n],
      [3, 5, 1n],
    ]);
    expect(book.pendingOrders('bid').map((o) => o.seq)).toEqual([1]);
  });
});

describe('runAuction: ioc and fok', () => {
  it('removes an ioc that does not fill in its arrival batch', () => {
    const i = bid(90n, 5n, { orderType: 'ioc' });
    const { book, r } = auction([i, ask(100n, 5n)]);
    expect(r.clearingPrice).toBeUndefined();
    expect(r.leaving).toEqual([{ order: i, reason: 'ioc_unfilled' }]);
    expect(book.get(i.orderId)).toBeUndefined();
    expect(book.size).toBe(1);
  });

  it('waits for the arrival batch, and judges a late one at the first auction it sees', () => {
    const early = bid(100n, 5n, { orderType: 'ioc', arrivalTick: TICK + 1 });
    const { book, r } = auction([early, ask(100n, 5n)]);
    expect(r.matches).toEqual([]);
    expect(r.leaving).toEqual([]);
    expect(book.get(early.orderId)).toBe(early);
    // Tick TICK+1 is its arrival batch.
    expect(pairs(runAuction(book, opts({ tick: TICK + 1 })))).toEqual([[1, 2, 5n]]);
    // An ioc stamped for an earlier tick (the auction it expected never ran) still gets one batch.
    resetSeq();
    const late = auction([bid(100n, 5n, { orderType: 'ioc', arrivalTick: TICK - 3 }), ask(100n, 5n)]);
    expect(pairs(late.r)).toEqual([[1, 2, 5n]]);
  });

  it('reports a partially filled ioc with its fill; its remainder does not rest', () => {
    // ioc bid 100×10 vs ask 100×4 → q = 4; remainder 6 leaves once settled.
    const i = bid(100n, 10n, { orderType: 'ioc' });
    const { book, r } = auction([i, ask(100n, 4n)]);
    expect(pairs(r)).toEqual([[1, 2, 4n]]);
    expect(r.leaving).toEqual([{ order: i, reason: 'ioc_unfilled', match: r.matches[0] }]);
    expect(book.get(i.orderId)?.status).toBe('pending_settlement');
    // Not judged again at the next tick.
    expect(runAuction(book, opts({ tick: TICK + 1 })).leaving).toEqual([]);
  });

  it('does not report a fully filled ioc', () => {
    // ioc ask 100×4 vs bid 100×10 → q = 4 = the ioc's amount.
    const { r } = auction([ask(100n, 4n, { orderType: 'ioc' }), bid(100n, 10n)]);
    expect(pairs(r)).toEqual([[2, 1, 4n]]);
    expect(r.leaving).toEqual([]);
  });

  it('fills a fok whole from one counterparty, passing over smaller ones', () => {
    // fok bid 100×10; asks #2 100×4, #3 100×10. P = 100 (D=10, S=14).
    // #2: q = 4 ≠ 10 → skip; #3: q = 10 ✓. #2 keeps resting.
    const { book, r } = auction([bid(100n, 10n, { orderType: 'fok' }), ask(100n, 4n), ask(100n, 10n)]);
    expect(pairs(r)).toEqual([[1, 3, 10n]]);
    expect(r.leaving).toEqual([]);
    expect(book.pendingOrders().map((o) => o.seq)).toEqual([2]);
  });

  it('removes a fok that no single counterparty fills whole', () => {
    // fok bid 100×10 vs asks 100×4 and 100×5: together 9 < 10, and each alone is short.
    const f = bid(100n, 10n, { orderType: 'fok' });
    const { book, r } = auction([f, ask(100n, 4n), ask(100n, 5n)]);
    expect(r.clearingPrice).toBe(100n);
    expect(r.matches).toEqual([]);
    expect(r.leaving).toEqual([{ order: f, reason: 'fok_unfilled' }]);
    expect(book.get(f.orderId)).toBeUndefined();
    expect(book.pendingCount).toBe(2);
  });

  it('fills a fok ask from the first bid large enough', () => {
    // fok ask 100×6; bids #2 100×5, #3 100×6. #2: q = 5 ≠ 6 → skip; #3: q = 6 ✓.
    const { r } = auction([ask(100n, 6n, { orderType: 'fok' }), bid(100n, 5n), bid(100n, 6n)]);
    expect(pairs(r)).toEqual([[3, 1, 6n]]);
    expect(r.leaving).toEqual([]);
  });
});

describe('runAuction: options', () => {
  it('rejects nonsensical options', () => {
    const book = new OrderBook();
    expect(() => runAuction(book, opts({ priceScale: 0n }))).toThrow(RangeError);
    expect(() => runAuction(book, opts({ feeBps: -1n }))).toThrow(RangeError);
    expect(() => runAuction(book, opts({ settlementBufferSlots: -1n }))).toThrow(RangeError);
    expect(() => runAuction(book, opts({ maxMatchesPerBatch: 0 }))).toThrow(RangeError);
    expect(() => runAuction(book, opts({ maxProbesPerOrder: 1.5 }))).toThrow(RangeError);
  });

  it('stops a bid looking for a counterparty after maxProbesPerOrder asks', () => {
    // bid 100×10 with min fill 10; asks 100×1 ×3, then 100×10. With 3 probes the bid gives up
    // before reaching the large ask; with the default it finds it.
    const orders = () => [
      bid(100n, 10n, { minFillSize: 10n }),
      ask(100n, 1n),
      ask(100n, 1n),
      ask(100n, 1n),
      ask(100n, 10n),
    ];
    expect(pairs(auction(orders(), { maxProbesPerOrder: 3 }).r)).toEqual([]);
    resetSeq();
    expect(pairs(auction(orders()).r)).toEqual([[1, 5, 10n]]);
  });
});
