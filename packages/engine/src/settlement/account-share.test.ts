import { describe, expect, it } from 'vitest';
import type { BookOrder } from '../book/types.js';
import { auctionShares } from './account-share.js';
import { MAX_QUEUED_MATCHES_PER_ACCOUNT } from './lock-window.js';

let seq = 0;
const order = (accountId: string) => ({ accountId, orderId: `o${++seq}` }) as BookOrder;

describe('auctionShares', () => {
  it('admits an account’s orders up to its share, counting its matches already waiting', () => {
    const queued: Record<string, number> = { flooder: MAX_QUEUED_MATCHES_PER_ACCOUNT - 1 };
    const admits = auctionShares((a) => queued[a] ?? 0);
    const [first, second] = [order('flooder'), order('flooder')];
    expect(admits(first)).toBe(true);
    expect(admits(second)).toBe(false);
    expect(admits(order('honest'))).toBe(true);
  });

  it('gives an order the same answer all auction long', () => {
    const admits = auctionShares(() => 0, 2);
    const orders = [order('a'), order('a'), order('a')];
    expect(orders.map(admits)).toEqual([true, true, false]);
    expect(orders.map(admits)).toEqual([true, true, false]);
  });
});
