/**
 * A per-account bucket as its users see it: the in-memory {@link RateLimiter} (one engine) or the
 * PostgreSQL one every engine shares (`pg-rate-limiter.ts`), with the same refusal semantics.
 */
import type { TakeResult } from './rate-limiter.js';

export interface AccountLimiter {
  take(key: string, cost: number): TakeResult | Promise<TakeResult>;
  /** Gives back `cost` taken earlier (a request refused for another reason), up to capacity. */
  refund(key: string, cost: number): void | Promise<void>;
  /** Buckets held in memory (absent for a shared limiter). */
  readonly size?: number;
}
