/**
 * Accounts in SQLite against accounts in PostgreSQL (`npm run bench:store -w packages/engine`),
 * written to docs/benchmarks/scale-out.md's store section: accepted placements per second
 * (closed loop) and place latency p50/p99 (open loop at one rate both stores get), side by side
 * in one run, the two stores alternating so a noisy minute hits both.
 *
 * What differs between the two is what a placement asks of the store: the token check is the
 * in-memory cache either way; the account's order bucket is one atomic UPDATE in PostgreSQL per
 * placement and per cancel (in memory with SQLite). Every other intake check runs as in
 * engine.bench.ts except the VALID_INPUT proof check, stubbed here (it costs the same for both
 * stores and would make proving the setup's hours). The load runs in its own process; PostgreSQL
 * is its own process too, on the same two cores (as a venue's would be on its own machine, its
 * CPU is not in the engine's figures, but it takes cores the engine would use).
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMITMENT_LAG } from '@nightjar/ledger';
import { padJsonText, REQUEST_SIZE_BUCKETS, stringifyJson } from '@nightjar/protocol';
import { startTestVenue, USDC, type TestVenue } from '@nightjar/testkit';
import { startPostgres } from '@nightjar/testkit/postgres';
import { createDatabase, runHeader } from './bench-run.js';
import { runLoad } from './run-load.js';
import type { LoadEntry, LoadResult } from './load-process.js';

const LANES = 32;
const ROUNDS = Number(process.env.STORE_BENCH_ROUNDS ?? 3);
const DURATION_MS = Number(process.env.STORE_BENCH_MS ?? 5_000);
/** Pre-signed orders per lane: more than a lane can place in DURATION_MS. */
const ORDERS_PER_LANE = Number(process.env.STORE_BENCH_ORDERS_PER_LANE ?? 400);
const OUT =
  process.env.STORE_BENCH_OUT ?? join(import.meta.dirname, '../../../docs/benchmarks/scale-out-store.json');

type Kind = 'sqlite' | 'postgres';

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const median = (xs: number[]) => percentile(xs, 50);

/** One venue, one lane per account (each its own order bucket), its orders pre-signed. */
async function prepare(kind: Kind, pgUrl: string): Promise<{ venue: TestVenue; lanes: LoadEntry[][] }> {
  const venue = await startTestVenue({
    ...(kind === 'postgres' ? { store: pgUrl } : {}),
    // The bucket is still taken (a statement in PostgreSQL); only its refusals are lifted.
    orderRateLimit: { capacity: 1e9, refillPerSecond: 1e9 },
    // Setup logs the admin in once per lane.
    loginRateLimit: { capacity: 1e6, refillPerSecond: 1e6 },
  });
  const funded = [];
  for (let i = 0; i < LANES; i++) {
    const { token } = await venue.newAccount();
    const trader = venue.trader();
    funded.push({ token, trader, note: await trader.depositNow(USDC, 1_000_000_000n + BigInt(i)) });
  }
  // One wait for finality for every deposit: each order's root is then the newest one.
  await venue.advance(COMMITMENT_LAG.finalized + 1);
  await venue.engine.context.trees.checkAgainstChain();
  const lanes: LoadEntry[][] = [];
  for (const { token, trader, note } of funded) {
    const entries: LoadEntry[] = [];
    for (let k = 0; k < ORDERS_PER_LANE; k++) {
      const body = trader.order(note, { amount: 1_000_000n, price_limit: 1_000n });
      entries.push({
        token,
        place: padJsonText(stringifyJson(body), REQUEST_SIZE_BUCKETS, { overhead: 300 }),
        cancelPath: `/orders/${body.order_id}`,
        cancel: padJsonText(stringifyJson(trader.cancelBody(body.order_id)), REQUEST_SIZE_BUCKETS, {
          overhead: 300,
        }),
      });
    }
    lanes.push(entries);
  }
  return { venue, lanes };
}

let databases = 0;
/** A fresh database per PostgreSQL venue: the dev admin is made only where no admin exists. */
function freshDatabase(pgUrl: string): Promise<string> {
  return createDatabase(pgUrl, `bench_${++databases}`);
}

async function measure(
  kind: Kind,
  pgUrl: string,
  mode: 'closed' | 'open',
  rate?: number,
): Promise<LoadResult> {
  const { venue, lanes } = await prepare(kind, kind === 'postgres' ? await freshDatabase(pgUrl) : '');
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-store-bench-'));
  try {
    const pairsFile = join(dir, 'pairs.json');
    writeFileSync(pairsFile, JSON.stringify(lanes));
    const result = await runLoad({
      url: venue.engine.url,
      certPem: venue.engine.certificate.certPem,
      token: '',
      pairsFile,
      mode,
      concurrency: LANES,
      ...(rate === undefined ? {} : { rate }),
      durationMs: DURATION_MS,
    });
    if (result.placed === 0) throw new Error(`${kind}: nothing accepted ${JSON.stringify(result.rejected)}`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await venue.close();
  }
}

async function main(): Promise<void> {
  const pg = await startPostgres();
  const loadBefore = loadavg()[0]!;
  const closed: Record<Kind, { rate: number; rejected: Record<string, number> }[]> = {
    sqlite: [],
    postgres: [],
  };
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of ['sqlite', 'postgres'] as const) {
        const res = await measure(kind, pg.url, 'closed');
        closed[kind].push({ rate: res.placed / (res.elapsedMs / 1000), rejected: res.rejected });
        console.error(
          `round ${r + 1} ${kind}: ${closed[kind].at(-1)!.rate.toFixed(0)} placements/s`,
          res.rejected,
        );
      }
    }
    // Latency at one rate both stores sustain: half the slower store's median closed-loop rate.
    const rate = Math.floor(
      Math.min(median(closed.sqlite.map((c) => c.rate)), median(closed.postgres.map((c) => c.rate))) / 2,
    );
    const open: Record<Kind, { p50: number[]; p99: number[]; rejected: Record<string, number>[] }> = {
      sqlite: { p50: [], p99: [], rejected: [] },
      postgres: { p50: [], p99: [], rejected: [] },
    };
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of ['sqlite', 'postgres'] as const) {
        const res = await measure(kind, pg.url, 'open', rate);
        open[kind].p50.push(percentile(res.latenciesMs, 50));
        open[kind].p99.push(percentile(res.latenciesMs, 99));
        open[kind].rejected.push(res.rejected);
      }
    }
    const summary = {
      ...runHeader(loadBefore),
      lanes: LANES,
      rounds: ROUNDS,
      duration_ms: DURATION_MS,
      open_loop_rate: rate,
      closed_loop: {
        sqlite: { median: median(closed.sqlite.map((c) => c.rate)), runs: closed.sqlite },
        postgres: { median: median(closed.postgres.map((c) => c.rate)), runs: closed.postgres },
      },
      open_loop: {
        sqlite: { p50_median: median(open.sqlite.p50), p99_median: median(open.sqlite.p99), ...open.sqlite },
        postgres: {
          p50_median: median(open.postgres.p50),
          p99_median: median(open.postgres.p99),
          ...open.postgres,
        },
      },
    };
    writeFileSync(OUT, JSON.stringify(summary, null, 2) + '\n');
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await pg.close();
  }
}

await main();
