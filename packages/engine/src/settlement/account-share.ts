/**
 * One auction's allowance per account: how many of its orders may take part, so that it adds at
 * most its share of matches to the prover's queue (`MAX_QUEUED_MATCHES_PER_ACCOUNT` less its
 * matches already waiting for proofs; each order takes at most one fill an auction). Orders past
 * it neither trade nor count in the clearing price: they rest for a later auction rather than
 * queueing proofs, so one account's burst cannot make everyone else's wait (and locks) longer
 * than its share, nor hold the price where its unfilled orders put it.
 *
 * Orders are admitted in the order the auction asks about them (best price first on each side)
 * and each answer is kept, so an order gets the same answer all auction long.
 */
import type { BookOrder } from '../book/types.js';
import { MAX_QUEUED_MATCHES_PER_ACCOUNT } from './lock-window.js';

export function auctionShares(
  queuedMatchesOf: (accountId: string) => number,
  max = MAX_QUEUED_MATCHES_PER_ACCOUNT,
): (order: BookOrder) => boolean {
  const admitted = new Map<string, number>();
  const answers = new Map<string, boolean>();
  return (order) => {
    let answer = answers.get(order.orderId);
    if (answer === undefined) {
      const n = admitted.get(order.accountId) ?? 0;
      answer = queuedMatchesOf(order.accountId) + n < max;
      if (answer) admitted.set(order.accountId, n + 1);
      answers.set(order.orderId, answer);
    }
    return answer;
  };
}
