/**
 * The token-bucket arithmetic every per-key limiter uses, in memory (`rate-limiter.ts`) or in
 * PostgreSQL (`pg-rate-limiter.ts`, whose SQL computes {@link BucketArithmetic.level} with the same
 * integer micro-units and the same double-precision product, and whose refusals are answered here).
 * Amounts are integer micro-units so the spec's fractional costs (0.1, 0.2, 1.2) add up exactly.
 */

export const MICRO = 1_000_000;

export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface Bucket {
  /** Micro-units available at `atMs`. */
  micros: number;
  atMs: number;
}

export interface BucketLimits {
  /** Largest burst, in cost units. */
  capacity: number;
  /** Cost units regained per second. */
  refillPerSecond: number;
}

export class BucketArithmetic {
  readonly capacityMicros: number;
  /** Micro-units regained per millisecond. */
  readonly refillMicrosPerMs: number;

  constructor(limits: BucketLimits) {
    if (!(limits.capacity > 0) || !Number.isFinite(limits.capacity))
      throw new RangeError('capacity must be positive');
    if (!(limits.refillPerSecond > 0) || !Number.isFinite(limits.refillPerSecond))
      throw new RangeError('refillPerSecond must be positive');
    this.capacityMicros = Math.round(limits.capacity * MICRO);
    this.refillMicrosPerMs = (limits.refillPerSecond * MICRO) / 1000;
  }

  toMicros(cost: number): number {
    if (!(cost >= 0) || !Number.isFinite(cost)) throw new RangeError('cost must be a non-negative number');
    const micros = Math.round(cost * MICRO);
    if (micros > this.capacityMicros) throw new RangeError('cost exceeds bucket capacity');
    return micros;
  }

  /** Micro-units in `bucket` at `now` (an absent bucket is full; a clock step back refills nothing). */
  level(bucket: Bucket | undefined, now: number): number {
    if (bucket === undefined) return this.capacityMicros;
    const elapsed = Math.max(0, now - bucket.atMs);
    return Math.min(this.capacityMicros, bucket.micros + Math.floor(elapsed * this.refillMicrosPerMs));
  }

  /** Whole milliseconds until `micros` are regained: exact, never early. */
  secondsToRegain(micros: number): number {
    return Math.ceil(micros / this.refillMicrosPerMs) / 1000;
  }

  /** The refusal of a take of `costMicros` from a bucket holding `available`. */
  refusal(available: number, costMicros: number): TakeResult {
    return { ok: false, retryAfterSeconds: this.secondsToRegain(costMicros - available) };
  }
}
