/**
 * Limits on callers without an account: a token bucket per client address, optionally under one
 * budget shared by all callers (quotes cost the platform a signature, whoever asks). IPv6 callers
 * count per /64, the block one subscriber usually holds, so rotating addresses inside it gains
 * nothing. The engine terminates TLS itself, so the socket's peer address is the client's.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { VenueError } from '@nightjar/protocol';
import type { RateLimiter } from '../accounts/rate-limiter.js';

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The 8 groups of an IPv6 address, or undefined for forms not worth normalising (embedded IPv4). */
function ipv6Groups(address: string): string[] | undefined {
  if (address.includes('.')) return undefined;
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  return [...head, ...Array<string>(missing).fill('0'), ...tail];
}

/** What a per-address limit counts under: the IPv4 address, or the IPv6 address's /64. */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const withoutZone = address.split('%')[0]!;
  const mapped = MAPPED_IPV4.exec(withoutZone);
  if (mapped) return mapped[1]!;
  if (isIPv4(withoutZone) || !isIPv6(withoutZone)) return withoutZone;
  const groups = ipv6Groups(withoutZone);
  if (!groups) return withoutZone.toLowerCase();
  return groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')
    .concat('::/64');
}

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
