/** Jittered exponential backoff, honouring a server's `Retry-After` when it gives one. */

/** How retries wait: base and cap in ms, and how many attempts in all. */
export interface BackoffOptions {
  baseMs?: number;
  maxMs?: number;
  attempts?: number;
}

/** Default backoff: 100 ms doubling to 5 s, at most 5 attempts. */
export const DEFAULT_BACKOFF: Required<BackoffOptions> = { baseMs: 100, maxMs: 5_000, attempts: 5 };

/**
 * Delay before retry number `attempt` (0-based): full jitter over an exponential window, but
 * never shorter than `retryAfterSeconds` when the server named one.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = {},
  retryAfterSeconds?: number,
  random: () => number = Math.random,
): number {
  const base = options.baseMs ?? DEFAULT_BACKOFF.baseMs;
  const max = options.maxMs ?? DEFAULT_BACKOFF.maxMs;
  const window = Math.min(max, base * 2 ** attempt);
  const jittered = window / 2 + random() * (window / 2);
  const floor = retryAfterSeconds === undefined ? 0 : retryAfterSeconds * 1000;
  return Math.max(floor, Math.round(jittered));
}

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
