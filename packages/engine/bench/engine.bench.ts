/**
 * Engine benchmark (`npm run bench -w packages/engine`), written to docs/benchmarks/engine.md:
 *  - sustained accepted orders per second over HTTPS keep-alive with every intake check on,
 *    including real VALID_INPUT proof verification through the worker-pool batcher;
 *  - p50/p99 place latency at half that rate (open loop);
 *  - matching tick time for a book of 100,000 resting orders and memory per resting order.
 *
 * Each of 64 notes backs one lane: the lane places an order on its note, cancels it (freeing the
 * note), and places the next, so real proofs made once are reused while every order is new. The
 * load runs in its own OS process, so its CPU is not in the engine process's figures; both share
 * this 2-core machine with the verifier workers.
 */
import { Session } from 'node:inspector';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { isContributoryX25519, poseidon } from '@nightjar/crypto';
import {
  ed25519PublicKey,
  ed25519Sign,
  ed25519VerifyStrict,
  httpHeadBytes,
  padJsonBody,
  padJsonText,
  parseJsonExact,
  REQUEST_SIZE_BUCKETS,
  RESPONSE_SIZE_BUCKETS,
  screenPlaceOrder,
  stringifyJson,
  type ScreenContext,
} from '@nightjar/protocol';
import { login, startTestVenue, USDC, type Note } from '@nightjar/testkit';
import { provedOrders } from '../test/real-proofs.js';
import { benchMatching } from './matching.bench.js';
import { runLoad } from './run-load.js';

const LANES = 64;
// Every order carries its own VALID_INPUT v2 proof (one proof backs one order): proving them is
// the setup's cost, so the default is far below the 500 per lane of the v1 runs.
const ORDERS_PER_LANE = Number(process.env.ENGINE_BENCH_ORDERS_PER_LANE ?? 16);
const DURATION_MS = Number(process.env.ENGINE_BENCH_MS ?? 10_000);
/** Orders per open-loop lane sent first, unmeasured, so the measured runs start warm. */
const WARM_UP_PER_LANE = 4;
/**
 * About the head the load generator writes before a body (request line, host, a bearer token,
 * content type and length, connection): the SDK pads the whole request to a bucket, so the bench's
 * bodies are padded as the SDK's would be.
 */
const LOAD_HEAD_BYTES = 300;
const padAsSdk = (json: string) => padJsonText(json, REQUEST_SIZE_BUCKETS, { overhead: LOAD_HEAD_BYTES });

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** CPU seconds of this process's main thread so far (Linux: /proc/self/task/<pid>/stat, in ticks). */
function mainThreadCpuSeconds(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  // Fields after the parenthesised name: state is field 3, utime 14 and stime 15 (1-based).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100;
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/**
 * Runs `run` under the V8 CPU profiler of the main thread when ENGINE_BENCH_PROFILE names a file
 * (a .cpuprofile for Chrome DevTools or speedscope): where the main thread's time goes.
 */
async function profiled<T>(run: () => Promise<T>): Promise<T> {
  const target = process.env.ENGINE_BENCH_PROFILE;
  if (!target) return run();
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, result) => (err ? reject(err) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(target, JSON.stringify(profile));
    session.disconnect();
  }
}

/** Engine-process CPU (every thread) and main-thread CPU spent while `run` runs. */
async function measureCpu<T>(run: () => Promise<T>): Promise<{ result: T; processS: number; mainS: number }> {
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuSeconds();
  const result = await run();
  const cpu = process.cpuUsage(cpu0);
  return { result, processS: (cpu.user + cpu.system) / 1e6, mainS: mainThreadCpuSeconds() - main0 };
}

interface StepCost {
  name: string;
  us: number;
  per: string;
  thread: 'main' | 'verifier worker';
}

/** Mean cost of each step of one place (and its cancel), and which thread pays it. */
function stepCosts(samplePlace: string, screenContext: ScreenContext): StepCost[] {
  const time = (n: number, f: () => void) => {
    for (let i = 0; i < 50; i++) f();
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    return ((performance.now() - t) / n) * 1000;
  };
  const seed = new Uint8Array(32).fill(3);
  const pub = ed25519PublicKey(seed);
  const msg = new Uint8Array(32);
  const sig = ed25519Sign(seed, msg);
  const parsed = parseJsonExact(samplePlace);
  const bare = samplePlace.trimEnd();
  // An order's 202 answer and the head the engine writes with it (pad-response.ts counts it).
  const answer = stringifyJson({
    order_id: 'x'.repeat(44),
    status: 'pending',
    server_time_ms: 1_764_633_600_000,
  });
  const answerHead: [string, string][] = [
    ['content-type', 'application/json; charset=utf-8'],
    ['date', new Date().toUTCString()],
    ['connection', 'keep-alive'],
    ['keep-alive', 'timeout=72'],
  ];
  return [
    {
      name: 'exact JSON parse of an order body as sent unpadded',
      us: time(1000, () => parseJsonExact(bare)),
      per: '—',
      thread: 'main',
    },
    {
      name: `exact JSON parse of an order body padded as the SDK sends it (${Buffer.byteLength(samplePlace)} bytes)`,
      us: time(1000, () => parseJsonExact(samplePlace)),
      per: '1',
      thread: 'main',
    },
    {
      name: 'screen: field rules, economics, canonical body + SHA-256, X25519 (cached)',
      us: time(1000, () => screenPlaceOrder(parsed, screenContext)),
      per: '1',
      thread: 'main',
    },
    {
      name: 'Poseidon, 3 inputs (opening hash, nullifier)',
      us: time(500, () => poseidon([6n, 2n, 3n])),
      per: '2',
      thread: 'verifier worker',
    },
    {
      name: 'Poseidon, 5 inputs (note commitment)',
      us: time(500, () => poseidon([2n, 2n, 3n, 4n, 5n])),
      per: '1',
      thread: 'verifier worker',
    },
    {
      name: 'pad an answer to its response bucket (head count, trailing whitespace)',
      us: time(5000, () =>
        padJsonBody(
          answer,
          (length) => httpHeadBytes('HTTP/1.1 202 Accepted', [...answerHead, ['content-length', length]]),
          RESPONSE_SIZE_BUCKETS,
          'multiple',
        ),
      ),
      per: '2 (place and cancel)',
      thread: 'main',
    },
    {
      name: 'Ed25519 strict verify',
      us: time(1000, () => ed25519VerifyStrict(pub, msg, sig)),
      per: '2 (place and cancel)',
      thread: 'verifier worker',
    },
  ];
}

async function main(): Promise<void> {
  const venue = await startTestVenue({
    verifyInputProof: undefined,
    validInputKey: await loadVerificationKey('valid_input_v2'),
    // The per-account bucket is policy, not capacity: lift it to measure the venue itself.
    orderRateLimit: { capacity: 1e9, refillPerSecond: 1e9 },
  });
  const { engine, ledger } = venue;
  const token = await login(venue.client, venue.admin);

  // One trader (trading key) and one note per lane; the notes are finalized, then proved once.
  const lanes = Array.from({ length: LANES }, () => venue.trader());
  const notes: Note[] = [];
  for (const [i, lane] of lanes.entries()) notes.push(await lane.deposit(USDC, 1_000_000n + BigInt(i)));
  const prover = new NoteProver({ workers: 2, maxQueue: LANES * ORDERS_PER_LANE });
  await prover.start();
  const proveStart = performance.now();
  // Pre-signed, non-crossing bids, each proved for its own terms: each lane's nonces increase in
  // the order it sends them.
  const bodies = await Promise.all(
    lanes.map((lane, i) =>
      provedOrders(
        venue,
        prover,
        Array.from({ length: ORDERS_PER_LANE }, () => ({
          trader: lane,
          note: notes[i]!,
          fields: { amount: 1_000_000n, price_limit: 1_000n },
        })),
      ),
    ),
  );
  const provingS = (performance.now() - proveStart) / 1000;
  await prover.close();
  const pairs = lanes.map((lane, i) =>
    bodies[i]!.map((body) => ({
      place: padAsSdk(stringifyJson(body)),
      cancelPath: `/orders/${body.order_id}`,
      cancel: padAsSdk(stringifyJson(lane.cancelBody(body.order_id))),
    })),
  );

  // Slots keep passing during the load, so every auction tick runs as in production.
  const ticker = setInterval(() => void ledger.advanceSlots({ slots: 1 }), 400);
  const common = { url: engine.url, certPem: engine.certificate.certPem, token, durationMs: DURATION_MS };
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-bench-'));
  const write = (name: string, lanesOf: typeof pairs) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(lanesOf));
    return file;
  };
  // Lanes 0..31 for the closed loop; 32..63 warm the engine up with their first orders (each
  // lane's nonces still rise in the order it sends them), then carry the open loop.
  const closedFile = write('closed', pairs.slice(0, 32));
  const warmFile = write(
    'warm',
    pairs.slice(32).map((l) => l.slice(0, WARM_UP_PER_LANE)),
  );
  const openFile = write(
    'open',
    pairs.slice(32).map((l) => l.slice(WARM_UP_PER_LANE)),
  );
  await runLoad({ ...common, pairsFile: warmFile, mode: 'closed', concurrency: 32 });
  const statsBefore = engine.verifierStats()!;
  const closedRun = await measureCpu(() =>
    profiled(() => runLoad({ ...common, pairsFile: closedFile, mode: 'closed', concurrency: 32 })),
  );
  const closed = closedRun.result;
  const statsAfter = engine.verifierStats()!;
  const jobs = statsAfter.batches - statsBefore.batches;
  const checks = statsAfter.completed - statsBefore.completed;
  const meanBatch = jobs > 0 ? checks / jobs : 0;
  if (closed.placed === 0) throw new Error(`no order was accepted: ${JSON.stringify(closed.rejected)}`);
  const rate = closed.placed / (closed.elapsedMs / 1000);
  const open = await runLoad({
    ...common,
    pairsFile: openFile,
    mode: 'open',
    concurrency: 32,
    rate: rate / 2,
  });
  clearInterval(ticker);
  rmSync(dir, { recursive: true, force: true });
  const openRate = open.placed / (open.elapsedMs / 1000);
  const cpuPerOrderMs = (closedRun.processS / closed.placed) * 1000;
  const mainPerOrderUs = (closedRun.mainS / closed.placed) * 1e6;
  const workersPerOrderMs = ((closedRun.processS - closedRun.mainS) / closed.placed) * 1000;

  const costs = stepCosts(pairs[0]![0]!.place, {
    instrument: (symbol) => engine.context.markets.get(symbol),
    currentSlot: BigInt(engine.context.chain.slot),
    numTrees: engine.context.trees.numTrees,
    isContributoryViewingKey: isContributoryX25519,
  });
  const step = (name: string) => costs.find((c) => c.name.includes(name))!;
  await venue.close();
  const matching = await benchMatching();
  const fmt = (x: number, d = 0) =>
    x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const md = `# Engine benchmark

- Run: ${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · Node ${process.version} · load average before/after ${loadavg()[0]?.toFixed(2)}
- Command: \`npm run bench -w packages/engine\`
- Setup: engine over HTTPS (keep-alive) in front of an in-process ledger whose slots pass every 400 ms; the load generator runs as its own OS process on the same 2-core machine as the engine's main thread and its 2 verifier workers (which run every per-order opening, signature and proof check). Every intake check is on, with real VALID_INPUT v2 proofs (${LANES} notes, ${fmt(LANES * ORDERS_PER_LANE)} orders proved once in ${fmt(provingS, 1)} s; each accepted order is then cancelled so its note can back the next one). The per-account rate limit is lifted for the run (it is policy, not capacity).

## Intake throughput and latency

"Before" is the run of 2026-11-25 (VALID_INPUT v1: one proof per note, reused by every order
on it; requests and answers unpadded; another machine, 2 × AMD EPYC); "now" is this run: every
order carries its own VALID_INPUT v2 proof for its terms (intake recomputes the order digest and
use tag), requests are padded as the SDK sends them and every answer to a response bucket (issue
30). The closed loop runs until ${fmt(DURATION_MS / 1000)} s pass or its lanes' pre-proved orders
(${fmt(32 * ORDERS_PER_LANE)}) are used up, after ${fmt(32 * WARM_UP_PER_LANE)} unmeasured warm-up
orders: proving is the setup's cost (${fmt(provingS / (LANES * ORDERS_PER_LANE), 2)} s per
proof here), so the run is short and its rate the noisier figure; per-order CPU is the one to
compare.

| measure | before | now | target |
|---|---:|---:|---|
| sustained accepted orders per second (closed loop, 32 in flight, ${fmt(closed.elapsedMs / 1000, 1)} s; each also cancelled) | 522 | **${fmt(rate)}** | ≥ 1,000 |
| engine-process CPU per accepted order, all threads (main + verifier workers + ledger; includes its cancel) | 3.20 ms | **${fmt(cpuPerOrderMs, 2)} ms** | ≤ 1.4 ms |
| engine main thread CPU per accepted order (includes its cancel) | 491 µs | **${fmt(mainPerOrderUs)} µs** | ≤ 150 µs |
| verifier workers' CPU per accepted order (the rest of the process: both workers; place and cancel checks) | 2.71 ms | ${fmt(workersPerOrderMs, 2)} ms | |
| worker jobs in that run, and mean checks per job (a place and a cancel are one check each) | 1,635 jobs, 6.4 per job | ${fmt(jobs)} jobs, ${fmt(meanBatch, 1)} per job | |
| accepted in that run | 5,234 | ${fmt(closed.placed)} | |
| refusals in that run | {} | ${JSON.stringify(closed.rejected)} | none |
| open loop at half that rate: achieved | 261 /s | ${fmt(openRate)} /s | |
| place latency p50 | 8.03 ms | **${fmt(percentile(open.latenciesMs, 50), 2)} ms** | |
| place latency p99 | 22.91 ms | **${fmt(percentile(open.latenciesMs, 99), 2)} ms** | < 10 ms |
| refusals in the open-loop run | {} | ${JSON.stringify(open.rejected)} | none |

CPU figures: \`process.cpuUsage()\` (every thread of the engine process) and the main thread's
own utime + stime from \`/proc/self/task/<pid>/stat\` (10 ms ticks), over the closed-loop run,
divided by the orders accepted in it. The load generator is another process and is not in them.

## Where an accepted order's CPU goes (measured in the same run)

| step | µs per call | per accepted order | thread |
|---|---:|---|---|
${costs.map((c) => `| ${c.name} | ${fmt(c.us, 1)} | ${c.per} | ${c.thread} |`).join('\n')}

Besides these, each order's VALID_INPUT verification runs in a verifier worker (crypto.md: about
1.1–1.3 ms per proof in batches of 64, about 2.5 ms in batches of 4), and TLS, HTTP framing and
routing of both requests run on the main thread.

### Why the targets are missed (from this run's figures)

- The run is CPU-bound: over the closed loop the engine process used
  ${fmt(closedRun.processS / (closed.elapsedMs / 1000), 2)} of the machine's 2 cores
  (${fmt(closedRun.processS, 1)} CPU s in ${fmt(closed.elapsedMs / 1000, 1)} s) and the load
  generator's TLS and JSON most of the rest. At ${fmt(cpuPerOrderMs, 2)} ms of engine CPU per
  accepted order, even both cores for the engine alone would carry
  ${fmt(2000 / cpuPerOrderMs)} orders/s; 1,000/s needs at most 2 ms per order with nothing else
  on the machine, and the ≤ 1.4 ms target is what would leave room for the load generator.
- The verifier workers are ${fmt((workersPerOrderMs / cpuPerOrderMs) * 100)} % of that CPU
  (${fmt(workersPerOrderMs, 2)} ms per order). Their jobs held ${fmt(meanBatch, 1)} checks on
  average, about half of them cancels (a signature only): the batcher hands work to a worker the
  moment it is free, which keeps latency low but verifies proofs a few at a time, where a proof
  costs about twice what it costs in a batch of 64. Two Ed25519 verifications and three Poseidon
  hashes add about ${fmt((2 * step('Ed25519').us + 2 * step('3 inputs').us + step('5 inputs').us) / 1000, 2)} ms.
- The main thread is not the bottleneck (a CPU profile of it, \`ENGINE_BENCH_PROFILE=file\`, shows
  it idle about two thirds of the run) but it spends ${fmt(mainPerOrderUs)} µs per order: TLS
  writes, the cross-thread messages to the workers, garbage collection, and parsing and screening
  the body (${fmt(step('padded as the SDK').us + step('screen').us)} µs) and padding both answers
  (${fmt(2 * step('pad an answer').us, 1)} µs), for two requests per order. Padding costs the main
  thread ${fmt(step('padded as the SDK').us - step('unpadded').us + 2 * step('pad an answer').us, 1)} µs
  per order in parsing and head counting (same run, side by side), besides TLS on the larger
  records. The rest of the main thread's rise over the run before (491 µs) is not separated
  here: TLS and HTTP framing of two 4 KiB requests (were about 1.8 KiB and 0.3 KiB) and two
  2 KiB answers (were about 0.3 KiB), another machine, and a run of ${fmt(closed.elapsedMs / 1000, 1)} s measured in
  10 ms ticks.
- Latency at half the sustained rate is queueing on the same two saturated cores: p99 under
  10 ms needs the load generator off this machine or more cores for the workers.

## Matching

| measure | value | target |
|---|---:|---|
${Object.entries(matching)
  .map(
    ([k, v]) =>
      `| ${k} | ${typeof v === 'number' ? fmt(v, 2) : String(v)} | ${k.startsWith('tick') ? '< 10 ms' : ''} |`,
  )
  .join('\n')}
`;
  writeFileSync(new URL('../../../docs/benchmarks/engine.md', import.meta.url), md);
  process.stdout.write(md);
}

await main();
