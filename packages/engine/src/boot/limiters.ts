/**
 * The per-address limiters of the public routes: public reads (`/tree/root`) and the attestation
 * quote routes, the latter under a budget shared by all callers.
 *
 * They stay in each engine's memory even with a shared (PostgreSQL) store: they guard this engine's
 * own CPU (quotes, tree reads) from one address, which is what a per-engine bucket measures; the
 * public routes never touch the store, so a database outage cannot close them; and a shared bucket
 * keyed by an address would put one SQL statement before every anonymous request.
 */
import { RATE_LIMIT } from '@nightjar/protocol';
import { AddressLimiter } from '../limits/address-limiter.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import type { AddressRateLimit, EngineOptions } from '../engine-options.js';

const DEFAULT_MAX_ADDRESSES = 10_000;

function perAddressLimiter(limit: AddressRateLimit, now: () => number): RateLimiter {
  return new RateLimiter({
    capacity: limit.capacity,
    refillPerSecond: limit.refillPerSecond,
    maxEntries: limit.maxAddresses ?? DEFAULT_MAX_ADDRESSES,
    now,
  });
}

/** Public reads: by default the account bucket's capacity and refill. */
export function publicReadLimiter(options: EngineOptions, now: () => number): AddressLimiter {
  return new AddressLimiter(
    perAddressLimiter(
      options.publicReadRateLimit ?? {
        capacity: RATE_LIMIT.capacity,
        refillPerSecond: RATE_LIMIT.refillPerSecond,
      },
      now,
    ),
  );
}

/** The quote routes: per address (default 20, 5/s) under a global budget (default 100, 20/s). */
export function attestationLimiter(options: EngineOptions, now: () => number): AddressLimiter {
  return new AddressLimiter(
    perAddressLimiter(options.attestation?.rateLimit ?? { capacity: 20, refillPerSecond: 5 }, now),
    new RateLimiter({
      ...(options.attestation?.globalRateLimit ?? { capacity: 100, refillPerSecond: 20 }),
      maxEntries: 1,
      now,
    }),
  );
}
