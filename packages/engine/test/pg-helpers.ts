/** Account services and limiters on a test's PostgreSQL server, as engines open them. */
import { vi } from 'vitest';
import { AccountService, type AccountServiceOptions } from '../src/accounts/account-service.js';
import { PgAccountStore } from '../src/accounts/pg-store.js';
import { PgRateLimiter, type PgRateLimiterOptions } from '../src/limits/pg-rate-limiter.js';
import { PgHealth } from '../src/pg/health.js';
import { openPgPool, type PgPool } from '../src/pg/pool.js';

export const CHEAP_HASHER = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** Everything opened here, closed by {@link PgEngines.close}. */
export class PgEngines {
  private readonly pools: PgPool[] = [];
  private readonly stores: PgAccountStore[] = [];

  constructor(private readonly url: string) {}

  pool(): PgPool {
    const pool = openPgPool(this.url);
    this.pools.push(pool);
    return pool;
  }

  /** One engine's account service: its own pool, health, change feed and token key. */
  async accounts(options: Partial<AccountServiceOptions> = {}): Promise<AccountService> {
    const health = new PgHealth();
    const store = new PgAccountStore(this.pool(), this.url, health);
    this.stores.push(store);
    return AccountService.open({ hasher: CHEAP_HASHER, ...options, store });
  }

  limiter(options: PgRateLimiterOptions, health = new PgHealth()): PgRateLimiter {
    return new PgRateLimiter(this.pool(), health, options);
  }

  async close(): Promise<void> {
    await Promise.all(this.stores.map((s) => s.close()));
    await Promise.all(this.pools.map((p) => p.end()));
  }
}

/** Polls `condition` (it changes as another engine's notification arrives) until true, with a cap. */
export async function pollUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeout = 10_000,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout, interval: 20 },
  );
}

/** The venue error code `fn` throws, if any. */
export async function codeOf(fn: () => unknown): Promise<number | undefined> {
  try {
    await fn();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'number') return code;
    throw err;
  }
  return undefined;
}
