/**
 * One signed operation at a time per client, from taking its nonce to the venue's answer. Nonces
 * must reach the venue in increasing order (it refuses one that does not advance, 1202), so two
 * orders proved in parallel are numbered and sent one after the other, retries included.
 */
import type { Client } from '../client.js';

const tails = new WeakMap<Client, Promise<unknown>>();

/** Runs `fn` after every earlier `withSendLock` call of `client` has settled. */
export function withSendLock<T>(client: Client, fn: () => Promise<T>): Promise<T> {
  const prev = tails.get(client) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  tails.set(
    client,
    run.catch(() => undefined),
  );
  return run;
}
