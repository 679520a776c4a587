import { describe, expect, it } from 'vitest';
import type { BookOrder, Match } from '../book/types.js';
import { auctionShares } from './account-share.js';
import { MAX_QUEUED_MATCHES_PER_ACCOUNT } from './lock-window.js';

const order = (accountId: string) => ({ accountId }) as BookOrder;
const match = (bid: string, ask: string) => ({ bid: order(bid), ask: order(ask) }) as Match<BookOrder>;

describe('auctionShares', () => {
  it('lets an account add matches up to its share, counting those already waiting', () => {
    const queued: Record<string, number> = { flooder: MAX_QUEUED_MATCHES_PER_ACCOUNT - 1 };
    const s = auctionShares((a) => queued[a] ?? 0);
    expect(s.canMatch(order('flooder'))).toBe(true);
    s.onMatch(match('flooder', 'honest'));
    expect(s.canMatch(order('flooder'))).toBe(false);
    expect(s.canMatch(order('honest'))).toBe(true);
  });

  it('a match of an account with itself counts once', () => {
    const s = auctionShares(() => 0, 2);
    s.onMatch(match('a', 'a'));
    expect(s.canMatch(order('a'))).toBe(true);
    s.onMatch(match('a', 'b'));
    expect(s.canMatch(order('a'))).toBe(false);
  });
});
