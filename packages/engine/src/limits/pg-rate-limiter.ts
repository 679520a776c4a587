/**
 * A per-account token bucket in PostgreSQL, shared by every engine on the store: each `take` is
 * one atomic INSERT … ON CONFLICT DO UPDATE … RETURNING (no read-modify-write race between
 * engines), in the integer micro-units of {@link BucketArithmetic}; the SQL's level is that
 * class's `level` (same floor of the same double product), and a refusal's Retry-After is
 * computed by it from the unchanged row. One row per (bucket, account): accounts are
 * operator-sized, so no eviction is needed. A failed query answers 503 5001 (the store is down).
 */
import type { PgHealth } from '../pg/health.js';
import type { PgPool } from '../pg/pool.js';
import type { AccountLimiter } from './account-limiter.js';
import { BucketArithmetic, type BucketLimits, type TakeResult } from './token-bucket.js';

// $3 capacity, $4 cost, $5 now, $6 refill per ms (all micro-units); b is the stored row.
const LEVEL = `LEAST($3::bigint, b.micros + floor(GREATEST(0, $5::bigint - b.at_ms)::float8 * $6::float8)::bigint)`;

const TAKE = `INSERT INTO rate_buckets AS b (bucket, key, micros, at_ms, granted)
  VALUES ($1, $2, $3::bigint - $4::bigint, $5::bigint, true)
  ON CONFLICT (bucket, key) DO UPDATE SET
    granted = ${LEVEL} >= $4::bigint,
    micros = CASE WHEN ${LEVEL} >= $4::bigint THEN ${LEVEL} - $4::bigint ELSE b.micros END,
    at_ms = CASE WHEN ${LEVEL} >= $4::bigint THEN $5::bigint ELSE b.at_ms END
  RETURNING micros, at_ms, granted`;

const REFUND = `UPDATE rate_buckets AS b SET micros = LEAST($3::bigint, ${LEVEL} + $4::bigint), at_ms = $5::bigint
  WHERE bucket = $1 AND key = $2`;

export interface PgRateLimiterOptions extends BucketLimits {
  /** The bucket's name (`order`, `login`): one table holds every kind. */
  bucket: string;
  now?: () => number;
}

export class PgRateLimiter implements AccountLimiter {
  private readonly math: BucketArithmetic;
  private readonly now: () => number;

  constructor(
    private readonly pool: PgPool,
    private readonly health: PgHealth,
    private readonly options: PgRateLimiterOptions,
  ) {
    this.math = new BucketArithmetic(options);
    this.now = options.now ?? Date.now;
  }

  take(key: string, cost: number): Promise<TakeResult> {
    const costMicros = this.math.toMicros(cost);
    const now = this.now();
    return this.health.guard(async () => {
      const r = await this.pool.query<{ micros: string; at_ms: string; granted: boolean }>(
        TAKE,
        this.params(key, costMicros, now),
      );
      const row = r.rows[0]!;
      if (row.granted) return { ok: true };
      const available = this.math.level({ micros: Number(row.micros), atMs: Number(row.at_ms) }, now);
      return this.math.refusal(available, costMicros);
    });
  }

  async refund(key: string, cost: number): Promise<void> {
    const costMicros = this.math.toMicros(cost);
    const now = this.now();
    await this.health.guard(() => this.pool.query(REFUND, this.params(key, costMicros, now)));
  }

  private params(key: string, costMicros: number, now: number): unknown[] {
    return [this.options.bucket, key, this.math.capacityMicros, costMicros, now, this.math.refillMicrosPerMs];
  }
}
