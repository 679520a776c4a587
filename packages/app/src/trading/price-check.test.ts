import { parsePrice, type Instrument, type TrackedFill, type TrackedOrder, type Wallet } from '@nightjar/sdk';
import { describe, expect, it } from 'vitest';
import { backingNote } from './collateral-note.js';
import { checkPrice, FAR_PRICE_PERCENT, isFar, referencePrices } from './price-check.js';

const inst = {
  symbol: 'SOL-USDC',
  base_decimals: 9,
  quote_decimals: 6,
  price_scale: 1_000_000_000n,
  tick_size: 1_000n,
} as Instrument;
const p = (price: string) => parsePrice(price, inst);

function order(
  id: string,
  side: 'bid' | 'ask',
  price: string,
  status: TrackedOrder['status'] = 'pending',
): TrackedOrder {
  return {
    orderId: id,
    symbol: 'SOL-USDC',
    side,
    noteCommitment: `n-${id}`,
    status,
    baseMint: 'B',
    quoteMint: 'Q',
    filledQuantity: 0n,
    ticket: { type: 'limit', amount: '1', price, createdAt: 0 },
  };
}

function fill(orderId: string, price: string, time: number): TrackedFill {
  return {
    orderId,
    matchId: `m-${orderId}-${time}`,
    time,
    price: p(price),
    settlement: { stage: 'done', outcome: 'settled' },
  };
}

/** A wallet holding just these orders and fills (all the reference prices read). */
function walletOf(orders: TrackedOrder[], fills: TrackedFill[]): Wallet {
  return {
    orders: new Map(orders.map((o) => [o.orderId, o])),
    fills: new Map(fills.map((f) => [f.matchId, f])),
  } as unknown as Wallet;
}

describe('reference prices', () => {
  const wallet = walletOf(
    [
      order('a1', 'ask', '141'),
      order('a2', 'ask', '150', 'cancelled'),
      order('b1', 'bid', '139'),
      { ...order('x', 'ask', '5'), symbol: 'ETH-USDC' },
    ],
    [fill('b1', '140', 2), fill('a1', '142', 1), fill('x', '5', 3)],
  );

  it("a bid's references: the wallet's fills in the market, newest first, and its open asks' limits", () => {
    expect(referencePrices(wallet, inst, 'bid')).toEqual([
      { source: 'recent_fill', price: p('140') },
      { source: 'recent_fill', price: p('142') },
      { source: 'open_order', price: p('141') },
    ]);
  });

  it("an ask's references take the open bids instead (never a closed order, never another market)", () => {
    expect(referencePrices(wallet, inst, 'ask').filter((r) => r.source === 'open_order')).toEqual([
      { source: 'open_order', price: p('139') },
    ]);
  });

  it('a price near one reference is not far, though others (the market moved) are', () => {
    const refs = [
      { source: 'recent_fill' as const, price: p('100') },
      { source: 'recent_fill' as const, price: p('150') },
    ];
    expect(checkPrice(p('148'), refs, inst, 'USDC').far).toBe(false);
    expect(checkPrice(p('1480'), refs, inst, 'USDC').warning).toContain('your recent fill at 150 USDC');
  });

  it('14141 typed for 141 is far, and the warning names the threshold and the reference', () => {
    const check = checkPrice(p('14141'), referencePrices(wallet, inst, 'bid'), inst, 'USDC');
    expect(check.far).toBe(true);
    expect(check.threshold_percent).toBe(FAR_PRICE_PERCENT);
    expect(check.warning).toContain('more than 20% away from your recent fill at 142 USDC');
    expect(check.reference_prices.map((r) => r.price)).toEqual(['140', '142', '141']);
  });

  it('a price within 20% of every reference is not far; exactly 20% is not far either', () => {
    expect(checkPrice(p('150'), referencePrices(wallet, inst, 'bid'), inst, 'USDC')).toMatchObject({
      far: false,
    });
    expect(isFar(p('120'), p('100'))).toBe(false);
    expect(isFar(p('120.001'), p('100'))).toBe(true);
    expect(isFar(p('79.999'), p('100'))).toBe(true);
  });

  it('no references (a first order): nothing is far', () => {
    expect(checkPrice(p('14141'), [], inst, 'USDC')).toEqual({
      far: false,
      threshold_percent: FAR_PRICE_PERCENT,
      reference_prices: [],
    });
  });
});

describe('the note that backs an order', () => {
  const notes = (...amounts: bigint[]) =>
    ({ freeNotes: () => amounts.map((amount) => ({ amount })) }) as unknown as Wallet;

  it('a larger note is locked whole; the split leaves the rest free', () => {
    const n = backingNote(notes(50_000_000n, 1_000_000_000n), 'Q', 141_000_000n, 6, 'USDC');
    expect(n).toMatchObject({ amount: '1000', whole_note_locked: true, split_remainder: '859' });
    expect(n?.explanation).toContain('the whole note is out of use until the order ends');
  });

  it('a note of exactly the collateral is preferred and offers no split', () => {
    const n = backingNote(notes(1_000_000_000n, 141_000_000n), 'Q', 141_000_000n, 6, 'USDC');
    expect(n).toMatchObject({ amount: '141', whole_note_locked: false, split_remainder: '0' });
  });

  it('no single note covers it: none to name', () => {
    expect(backingNote(notes(1n), 'Q', 141_000_000n, 6, 'USDC')).toBeUndefined();
  });
});
