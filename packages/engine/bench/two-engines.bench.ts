/**
 * Two engines against one on the same load (`npm run bench:two-engines -w packages/engine`),
 * written to docs/benchmarks/scale-out-engines.json for docs/benchmarks/scale-out.md: accepted
 * orders per second when one engine writes both markets (SOL-USDC and ETH-USDC) and when each of
 * two engines writes one, side by side in one run, the two layouts alternating.
 *
 * Each engine is its own OS process (testkit's engine child: every intake check but the VALID_INPUT
 * proof check, which is stubbed, as in store.bench.ts), with its accounts in one PostgreSQL; the
 * ledger serves JSON-RPC from this process; each market's load is its own OS process (closed
 * loop, one lane per account, each order cancelled to free its note). On two cores the engines,
 * their verifier workers, PostgreSQL and the loads all share the machine: the figure says what a
 * second engine buys when the cores are already busy, not what a second machine would.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMITMENT_LAG, ensureDevGenesis, Ledger, loadOrCreateDevKeys, serveLedger } from '@nightjar/ledger';
import { padJsonText, REQUEST_SIZE_BUCKETS, stringifyJson } from '@nightjar/protocol';
import { HttpsClient, login, Trader, USDC, type Note } from '@nightjar/testkit';
import { killEngineProcesses, startEngineProcess, type EngineChild } from '@nightjar/testkit/process';
import { freePort, startPostgres } from '@nightjar/testkit/postgres';
import { clientVenue, preparedDataDir } from '../test/settlement/engine-process.js';
import { ETH_MARKET, SOL_MARKET, type TestMarket } from '../test/multi-engine.js';
import type { LoadEntry } from './load-process.js';
import { createDatabase, runHeader } from './bench-run.js';
import { runLoad } from './run-load.js';

const LANES = Number(process.env.TWO_ENGINES_BENCH_LANES ?? 32);
const ROUNDS = Number(process.env.TWO_ENGINES_BENCH_ROUNDS ?? 3);
const DURATION_MS = Number(process.env.TWO_ENGINES_BENCH_MS ?? 6_000);
const ORDERS_PER_LANE = Number(process.env.TWO_ENGINES_BENCH_ORDERS_PER_LANE ?? 200);
const OUT =
  process.env.TWO_ENGINES_BENCH_OUT ??
  join(import.meta.dirname, '../../../docs/benchmarks/scale-out-engines.json');

interface Engine {
  child: EngineChild;
  client: HttpsClient;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function startOne(ledgerUrl: string, dataDir: string, markets: TestMarket[], store: string) {
  const child = await startEngineProcess({
    LEDGER_URL: ledgerUrl,
    DATA_DIR: dataDir,
    NIGHTJAR_TEST_PORT: String(await freePort()),
    NIGHTJAR_TEST_MARKETS: markets.map((m) => m.symbol).join(','),
    NIGHTJAR_TEST_STORE: store,
    // The per-account bucket is still taken (one statement in PostgreSQL); only refusals are lifted.
    NIGHTJAR_TEST_NO_ORDER_LIMIT: '1',
  });
  return { child, client: new HttpsClient(child.url, child.cert) };
}

/** A market's lanes at `engine`: one account and one note each, orders pre-signed for this run. */
async function lanesAt(
  ledger: Ledger,
  engine: Engine,
  market: TestMarket,
  admin: NonNullable<EngineChild['admin']>,
): Promise<{ sign: () => Promise<LoadEntry[][]> }> {
  const { venue, refresh } = await clientVenue(ledger, engine.child, engine.client);
  const adminToken = await login(engine.client, admin);
  const traders: Trader[] = [];
  const tokens: string[] = [];
  const notes: Note[] = [];
  for (let i = 0; i < LANES; i++) {
    const made = await engine.client.send('/admin/accounts', { method: 'POST', token: adminToken, body: {} });
    tokens.push(await login(engine.client, made.body));
    const trader = new Trader(venue);
    traders.push(trader);
    notes.push(await trader.depositNow(USDC, 1_000_000_000n));
  }
  await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
  await venue.engine.context.trees.checkAgainstChain();
  const pad = (body: unknown) => padJsonText(stringifyJson(body), REQUEST_SIZE_BUCKETS, { overhead: 300 });
  const sign = async () => {
    await refresh();
    return traders.map((trader, i) =>
      Array.from({ length: ORDERS_PER_LANE }, () => {
        // Bids only: nothing crosses, every order is intake alone.
        const body = trader.order(notes[i]!, {
          symbol: market.symbol,
          side: 'bid',
          amount: market.amount,
          price_limit: market.price,
        });
        return {
          token: tokens[i]!,
          place: pad(body),
          cancelPath: `/orders/${body.order_id}`,
          cancel: pad(trader.cancelBody(body.order_id)),
        };
      }),
    );
  };
  return { sign };
}

async function load(engine: Engine, lanes: LoadEntry[][], dir: string, name: string) {
  const pairsFile = join(dir, `${name}.json`);
  writeFileSync(pairsFile, JSON.stringify(lanes));
  return runLoad({
    url: engine.child.url,
    certPem: engine.child.cert,
    token: '',
    pairsFile,
    mode: 'closed',
    concurrency: LANES,
    durationMs: DURATION_MS,
  });
}

async function main(): Promise<void> {
  const pg = await startPostgres();
  const devKeys = loadOrCreateDevKeys(undefined);
  const ledger = Ledger.open({
    clock: { mode: 'manual' },
    dev: true,
    verifier: { verify: async () => true },
    freshSignerWorkBits: 4,
  });
  await ensureDevGenesis(ledger, devKeys);
  await ledger.advanceSlots({ slots: 40 });
  const server = await serveLedger(ledger, { port: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-two-engines-'));
  const dataDirs: string[] = [];
  const dataDir = async () => {
    const d = await preparedDataDir(ledger, devKeys.adminSeed);
    dataDirs.push(d);
    return d;
  };
  const loadBefore = loadavg()[0]!;
  try {
    const oneDb = await createDatabase(pg.url, 'one_engine');
    const twoDb = await createDatabase(pg.url, 'two_engines');
    const single = await startOne(server.url, await dataDir(), [SOL_MARKET, ETH_MARKET], oneDb);
    const a = await startOne(server.url, await dataDir(), [SOL_MARKET], twoDb);
    const b = await startOne(server.url, await dataDir(), [ETH_MARKET], twoDb);
    // One accounts store per layout: the engine that booted first made its dev admin.
    const twoAdmin = a.child.admin ?? b.child.admin!;
    const layouts = {
      one: [
        { engine: single, lanes: await lanesAt(ledger, single, SOL_MARKET, single.child.admin!) },
        { engine: single, lanes: await lanesAt(ledger, single, ETH_MARKET, single.child.admin!) },
      ],
      two: [
        { engine: a, lanes: await lanesAt(ledger, a, SOL_MARKET, twoAdmin) },
        { engine: b, lanes: await lanesAt(ledger, b, ETH_MARKET, twoAdmin) },
      ],
    };
    const runs: Record<'one' | 'two', { rate: number; rejected: Record<string, number>[] }[]> = {
      one: [],
      two: [],
    };
    for (let r = 0; r < ROUNDS; r++) {
      for (const layout of ['one', 'two'] as const) {
        const markets = layouts[layout];
        const signed = await Promise.all(markets.map((m) => m.lanes.sign()));
        const results = await Promise.all(
          markets.map((m, i) => load(m.engine, signed[i]!, dir, `${layout}-${r}-${i}`)),
        );
        const elapsedS = Math.max(...results.map((x) => x.elapsedMs)) / 1000;
        const placed = results.reduce((n, x) => n + x.placed, 0);
        runs[layout].push({ rate: placed / elapsedS, rejected: results.map((x) => x.rejected) });
        console.error(`round ${r + 1} ${layout}: ${(placed / elapsedS).toFixed(0)} accepted/s`);
      }
    }
    const summary = {
      ...runHeader(loadBefore),
      lanes_per_market: LANES,
      rounds: ROUNDS,
      duration_ms: DURATION_MS,
      one_engine: { median: median(runs.one.map((x) => x.rate)), runs: runs.one },
      two_engines: { median: median(runs.two.map((x) => x.rate)), runs: runs.two },
    };
    writeFileSync(OUT, JSON.stringify(summary, null, 2) + '\n');
    console.log(JSON.stringify(summary, null, 2));
    for (const e of [single, a, b]) e.client.close();
  } finally {
    killEngineProcesses();
    await server.close();
    await ledger.close();
    await pg.close();
    rmSync(dir, { recursive: true, force: true });
    for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
