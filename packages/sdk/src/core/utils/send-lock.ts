/**
 * One signed operation at a time per client and signer, from taking its nonce to the answer.
 * - `withSendLock` (the venue): nonces must reach the venue in increasing order (it refuses one
 *   that does not advance, 1202), so two orders proved in parallel are numbered and sent one after
 *   the other, retries included.
 * - `withFundingLock` (the funding key on the ledger): a deposit reads the key's last
 *   nonce and signs the next, so two at once would sign the same nonce and one would be refused;
 *   each holds the lock until its transaction landed (or was refused; a `wait: 'sent'` deposit,
 *   until sent).
 */
import type { VenueSession } from '../session.js';

type LockName = 'venue' | 'funding';

const tails = new WeakMap<VenueSession, Map<LockName, Promise<unknown>>>();

/** Runs `fn` after every earlier call of `client` under the same lock has settled. */
function withLock<T>(client: VenueSession, name: LockName, fn: () => Promise<T>): Promise<T> {
  let locks = tails.get(client);
  if (!locks) tails.set(client, (locks = new Map()));
  const prev = locks.get(name) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  locks.set(
    name,
    run.catch(() => undefined),
  );
  return run;
}

/** Runs `fn` after every earlier `withSendLock` call of `client` has settled. */
export function withSendLock<T>(client: VenueSession, fn: () => Promise<T>): Promise<T> {
  return withLock(client, 'venue', fn);
}

/** Runs `fn` after every earlier `withFundingLock` call of `client` has settled. */
export function withFundingLock<T>(client: VenueSession, fn: () => Promise<T>): Promise<T> {
  return withLock(client, 'funding', fn);
}
