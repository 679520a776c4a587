/**
 * One auction's allowance per account: how many more matches each account may add to the prover's
 * queue (`MAX_QUEUED_MATCHES_PER_ACCOUNT` less its matches already waiting for proofs), used up
 * as the auction matches its orders. An account past it has its orders passed over: they wait in
 * the book for a later auction rather than queueing proofs, so one account's burst cannot make
 * everyone else's wait (and locks) longer than its share.
 */
import type { AuctionOptions, BookOrder, Match } from '../book/types.js';
import { MAX_QUEUED_MATCHES_PER_ACCOUNT } from './lock-window.js';

export function auctionShares(
  queuedMatchesOf: (accountId: string) => number,
  max = MAX_QUEUED_MATCHES_PER_ACCOUNT,
): Required<Pick<AuctionOptions, 'canMatch' | 'onMatch'>> {
  const taken = new Map<string, number>();
  return {
    canMatch: (order: BookOrder) =>
      queuedMatchesOf(order.accountId) + (taken.get(order.accountId) ?? 0) < max,
    onMatch: (match: Match<BookOrder>) => {
      for (const a of new Set([match.bid.accountId, match.ask.accountId]))
        taken.set(a, (taken.get(a) ?? 0) + 1);
    },
  };
}
