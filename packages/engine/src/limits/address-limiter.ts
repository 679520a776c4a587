/**
 * Limits on callers without an account: a token bucket per client address, optionally under one
 * budget shared by all callers (quotes cost the platform a signature, whoever asks). IPv6 callers
 * count per /64, the block one subscriber usually holds, so rotating addresses inside it gains
 * nothing. The engine terminates TLS itself, so the socket's peer address is the client's.
 */
import { addressKey, VenueError } from '@nightjar/protocol';
import type { RateLimiter } from './rate-limiter.js';

export { addressKey };

export class AddressLimiter {
  constructor(
    private readonly perAddress: RateLimiter,
    /** One bucket for every caller together (key `all`), charged after the caller's own. */
    private readonly shared?: RateLimiter,
  ) {}

  /** Charges `cost` to the caller's bucket, then the shared one; 429 1401 with Retry-After when either is spent. */
  charge(address: string | undefined, cost: number, what: string): void {
    const key = addressKey(address);
    const own = this.perAddress.take(key, cost);
    if (!own.ok) throw limited(`${what} rate limited for this address`, own.retryAfterSeconds);
    const all = this.shared?.take('all', cost);
    if (all && !all.ok) {
      this.perAddress.refund(key, cost); // the caller got nothing for it
      throw limited(`${what}: the venue-wide budget is spent`, all.retryAfterSeconds);
    }
  }
}

function limited(message: string, retryAfterSeconds: number): VenueError {
  return new VenueError(1401, `${message}; retry in about ${Math.ceil(retryAfterSeconds)} s`, {
    retryAfterSeconds,
  });
}
