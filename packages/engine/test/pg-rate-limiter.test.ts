/**
 * The PostgreSQL rate limiter against the in-memory one: the same sequence of takes, refunds and
 * clock steps gives the same grants and the same Retry-After; two engines share one bucket; an
 * unreachable server answers 503 5001.
 */
import { RATE_LIMIT } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { RateLimiter } from '../src/limits/rate-limiter.js';
import { PgHealth } from '../src/pg/health.js';
import { migrate } from '../src/pg/migrate.js';
import { codeOf, PgEngines } from './pg-helpers.js';

let server: TestPostgres;
let engines: PgEngines;
beforeAll(async () => {
  server = await startPostgres();
  engines = new PgEngines(server.url);
  await migrate(engines.pool());
});
afterAll(async () => {
  await engines?.close();
  await server?.close();
});

type Step = { take: number } | { refund: number } | { advanceMs: number };

/** Deterministic pseudo-random order operations and clock steps (costs of DESIGN 9). */
function script(n: number): Step[] {
  const costs = Object.values(RATE_LIMIT.cost);
  let x = 12345;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31);
  const steps: Step[] = [];
  for (let i = 0; i < n; i++) {
    const r = next() % 100;
    if (r < 75) steps.push({ take: costs[next() % costs.length]! });
    else if (r < 80) steps.push({ refund: costs[next() % costs.length]! });
    else steps.push({ advanceMs: next() % 130 });
  }
  return steps;
}

describe('PgRateLimiter', () => {
  it('grants, refuses and answers Retry-After exactly as the in-memory limiter', async () => {
    const clock = { ms: 1_750_000_000_000 };
    const now = () => clock.ms;
    const limits = { capacity: RATE_LIMIT.capacity, refillPerSecond: RATE_LIMIT.refillPerSecond };
    const memory = new RateLimiter({ ...limits, now });
    const shared = engines.limiter({ bucket: 'order', ...limits, now });
    let refusals = 0;
    for (const step of script(600)) {
      if ('advanceMs' in step) clock.ms += step.advanceMs;
      else if ('refund' in step) {
        memory.refund('acct', step.refund);
        await shared.refund('acct', step.refund);
      } else {
        const expected = memory.take('acct', step.take);
        expect(await shared.take('acct', step.take)).toEqual(expected);
        if (!expected.ok) refusals++;
      }
    }
    expect(refusals).toBeGreaterThan(20); // the script did exercise refusals
  });

  it('is one bucket for two engines: 40 places between them, then both refuse', async () => {
    const clock = { ms: 1_750_000_000_000 };
    const options = { bucket: 'order', ...RATE_LIMIT, now: () => clock.ms };
    const a = engines.limiter(options);
    const b = engines.limiter(options);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).take('shared-acct', RATE_LIMIT.cost.place)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(40);
    expect(await a.take('shared-acct', 1)).toEqual({ ok: false, retryAfterSeconds: 0.05 });
    expect(await b.take('shared-acct', 1)).toEqual({ ok: false, retryAfterSeconds: 0.05 });
    expect((await a.take('another-acct', 1)).ok).toBe(true);
  });

  it('answers 503 5001 and marks the store down while the server is unreachable', async () => {
    const health = new PgHealth();
    const nowhere = new PgEngines('postgres://nightjar:x@127.0.0.1:1/nightjar');
    const limiter = nowhere.limiter({ bucket: 'order', capacity: 1, refillPerSecond: 1 }, health);
    expect(await codeOf(() => limiter.take('acct', 1))).toBe(5001);
    expect(health.available).toBe(false);
    await nowhere.close();
  });
});
