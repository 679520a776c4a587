/**
 * A token bucket per key (an account id, usually), in memory, driven by an injectable clock; its
 * arithmetic (integer micro-units) is `token-bucket.ts`, shared with the PostgreSQL limiter. Memory is bounded: a bucket that has refilled to capacity is indistinguishable from a
 * fresh one, so idle full buckets are dropped, and the map never holds more than `maxEntries`
 * buckets. A bucket still in debt is never dropped to make room (that would forgive it: a caller
 * rotating keys could reset itself or others); while every slot holds debt, a new key is refused
 * instead, until buckets refill.
 */

import { RATE_LIMIT } from '@nightjar/protocol';
import { BucketArithmetic, MICRO, type Bucket, type TakeResult } from './token-bucket.js';

export type { TakeResult };
/** A full table is swept for refilled buckets at most this often (a sweep is O(maxEntries)). */
const FULL_SWEEP_INTERVAL_MS = 1_000;

export interface RateLimiterOptions {
  /** Largest burst, in cost units. */
  capacity: number;
  /** Cost units regained per second. */
  refillPerSecond: number;
  /** Milliseconds since the epoch (or any monotone origin). */
  now?: () => number;
  /** Bound on live buckets; default 100,000. */
  maxEntries?: number;
}

export class RateLimiter {
  readonly capacity: number;
  readonly refillPerSecond: number;
  readonly maxEntries: number;
  private readonly now: () => number;
  private readonly math: BucketArithmetic;
  private readonly capacityMicros: number;
  /** Insertion order is recency order: every touch re-inserts. */
  private readonly buckets = new Map<string, Bucket>();
  private lastFullSweepAt = -Infinity;

  constructor(options: RateLimiterOptions) {
    this.math = new BucketArithmetic(options);
    const maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
      throw new RangeError('maxEntries must be a positive integer');
    this.capacity = options.capacity;
    this.refillPerSecond = options.refillPerSecond;
    this.maxEntries = maxEntries;
    this.now = options.now ?? Date.now;
    this.capacityMicros = this.math.capacityMicros;
  }

  /** Number of buckets held (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  /**
   * Takes `cost` from `key`'s bucket if it holds that much; otherwise takes nothing and says how
   * long until it will. A new key is refused the same way while every slot holds a bucket in debt.
   */
  take(key: string, cost: number): TakeResult {
    const costMicros = this.toMicros(cost);
    const now = this.now();
    const available = this.level(key, now);
    // A refused request leaves the bucket as it was; nothing to store for an unseen key.
    if (available < costMicros) return this.math.refusal(available, costMicros);
    const left = available - costMicros;
    // A new key while every slot holds debt is refused; after one full refill time all are full again.
    if (left < this.capacityMicros && !this.buckets.has(key) && !this.makeRoom(now))
      return { ok: false, retryAfterSeconds: this.math.secondsToRegain(this.capacityMicros) };
    this.store(key, left, now);
    return { ok: true };
  }

  /** Gives back `cost` taken earlier (a request refused for another reason), up to capacity. */
  refund(key: string, cost: number): void {
    const costMicros = this.toMicros(cost);
    const now = this.now();
    if (!this.buckets.has(key)) return; // already full (or evicted, which is the same thing)
    this.store(key, Math.min(this.capacityMicros, this.level(key, now) + costMicros), now);
  }

  /** Current allowance of `key` in cost units. */
  available(key: string): number {
    return this.level(key, this.now()) / MICRO;
  }

  /** Drops every bucket that has refilled to capacity; returns how many were dropped. */
  sweep(): number {
    const now = this.now();
    let dropped = 0;
    for (const [key] of this.buckets) {
      if (this.level(key, now) >= this.capacityMicros) {
        this.buckets.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  /** Is there a free slot for a new bucket? Drops refilled buckets to make one, never one in debt. */
  private makeRoom(now: number): boolean {
    this.dropRefilledOldest(now);
    if (this.buckets.size < this.maxEntries) return true;
    if (now - this.lastFullSweepAt >= FULL_SWEEP_INTERVAL_MS || now < this.lastFullSweepAt) {
      this.lastFullSweepAt = now;
      this.sweep();
    }
    return this.buckets.size < this.maxEntries;
  }

  private toMicros(cost: number): number {
    return this.math.toMicros(cost);
  }

  private level(key: string, now: number): number {
    return this.math.level(this.buckets.get(key), now);
  }

  private store(key: string, micros: number, now: number): void {
    this.buckets.delete(key);
    if (micros >= this.capacityMicros) return; // full: same as absent
    this.buckets.set(key, { micros, atMs: now });
    this.dropRefilledOldest(now);
  }

  private dropRefilledOldest(now: number): void {
    // The least recently touched buckets come first; drop those that have refilled meanwhile.
    // Amortised O(1): each bucket is deleted at most once per insertion.
    for (const [key] of this.buckets) {
      if (this.level(key, now) < this.capacityMicros) break;
      this.buckets.delete(key);
    }
  }
}

/**
 * The per-account order limiter of DESIGN.md section 9 (capacity 40, refill 20/s); charge
 * `RATE_LIMIT.cost.place | modify | cancel | read` per operation and answer a refusal with
 * `new VenueError(1401, message, { retryAfterSeconds })` so the response carries `Retry-After`.
 */
export function orderRateLimiter(now?: () => number, maxEntries?: number): RateLimiter {
  return new RateLimiter({
    capacity: RATE_LIMIT.capacity,
    refillPerSecond: RATE_LIMIT.refillPerSecond,
    ...(now ? { now } : {}),
    ...(maxEntries ? { maxEntries } : {}),
  });
}
