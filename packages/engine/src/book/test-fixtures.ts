/** Test-only helpers for the book and matcher tests. */
import type { AuctionOptions, BookOrder, ClearingResult } from './types.js';

/** The demo SOL-USDC market's economics: price_scale 1e9, fee 10 bps, tick 1000. */
export const SOL_USDC = { priceScale: 1_000_000_000n, feeBps: 10n, tickSize: 1_000n } as const;

export const SLOT = 1_000n;
export const BUFFER = 20n;
export const TICK = 7;

let seq = 0;

/** Resets the sequence counter so each test numbers its orders from 1. */
export function resetSeq(): void {
  seq = 0;
}

/**
 * A resting limit order with its own trading key and owner (no accidental self-trade), arrived
 * at slot 900 in the current tick, expiring well after the settlement buffer.
 */
export function order(
  side: 'bid' | 'ask',
  priceLimit: bigint,
  amount: bigint,
  extra: Partial<BookOrder> = {},
): BookOrder {
  const s = ++seq;
  const id = s.toString(16).padStart(32, '0');
  return {
    seq: s,
    orderId: id,
    accountId: `acct-${s}`,
    tradingKey: `key-${s}`,
    ownerCommitment: `owner-${s}`,
    side,
    orderType: 'limit',
    amount,
    priceLimit,
    minFillSize: 0n,
    expirySlot: 5_000n,
    arrivalSlot: 900n,
    arrivalTick: TICK,
    noteAmount: amount,
    status: 'pending',
    ...extra,
  };
}

export const bid = (price: bigint, amount: bigint, extra?: Partial<BookOrder>) =>
  order('bid', price, amount, extra);
export const ask = (price: bigint, amount: bigint, extra?: Partial<BookOrder>) =>
  order('ask', price, amount, extra);

/** Auction options at SLOT / TICK with a plain price scale of 1 and no fee, unless overridden. */
export function opts(extra: Partial<AuctionOptions> = {}): AuctionOptions {
  return {
    slot: SLOT,
    tick: TICK,
    priceScale: 1n,
    feeBps: 0n,
    settlementBufferSlots: BUFFER,
    nextMatchId: 1n,
    ...extra,
  };
}

/** The rule as written, over every candidate: O(n²), for cross-checking. */
export function referenceClearing(
  orders: { side: 'bid' | 'ask'; priceLimit: bigint; amount: bigint }[],
): ClearingResult {
  const candidates = new Set<bigint>();
  for (const o of orders) if (o.side === 'bid' || o.priceLimit !== 0n) candidates.add(o.priceLimit);
  let best: ClearingResult = { price: undefined, volume: 0n, demand: 0n, supply: 0n };
  let bestImbalance = 0n;
  for (const p of candidates) {
    let demand = 0n;
    let supply = 0n;
    for (const o of orders) {
      if (o.side === 'bid' && o.priceLimit >= p) demand += o.amount;
      if (o.side === 'ask' && o.priceLimit <= p) supply += o.amount;
    }
    const volume = demand < supply ? demand : supply;
    const imbalance = demand > supply ? demand - supply : supply - demand;
    if (volume === 0n) continue;
    const better =
      volume > best.volume ||
      (volume === best.volume &&
        (imbalance < bestImbalance || (imbalance === bestImbalance && p < (best.price ?? p + 1n))));
    if (better) {
      best = { price: p, volume, demand, supply };
      bestImbalance = imbalance;
    }
  }
  return best;
}
