/**
 * Engine benchmark (`npm run bench -w packages/engine`), written to docs/benchmarks/engine.md:
 *  - sustained accepted orders per second over HTTPS keep-alive with every intake check on,
 *    including real VALID_INPUT proof verification through the worker-pool batcher;
 *  - p50/p99 place latency at half that rate (open loop);
 *  - matching tick time for a book of 100,000 resting orders and memory per resting order.
 *
 * Each of 64 notes backs one lane: the lane places an order on its note, cancels it (freeing the
 * note), and places the next, so real proofs made once are reused while every order is new. The
 * load runs in a worker thread so the client does not share the engine's event loop; both share
 * this 2-core machine with the verifier workers.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { generateX25519KeyPair, isContributoryX25519, poseidon } from '@nightjar/crypto';
import {
  bytesToHex,
  ed25519PublicKey,
  ed25519Sign,
  ed25519VerifyStrict,
  parseAddress,
  parseJsonExact,
  stringifyJson,
} from '@nightjar/protocol';
import { login, startTestVenue, USDC, type Note } from '../test/harness.js';
import { benchMatching } from './matching.bench.js';
import type { LoadJob, LoadResult } from './load-worker.js';

const LANES = 64;
const ORDERS_PER_LANE = Number(process.env.ENGINE_BENCH_ORDERS_PER_LANE ?? 600);
const DURATION_MS = Number(process.env.ENGINE_BENCH_MS ?? 10_000);

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function runLoad(job: LoadJob): Promise<LoadResult> {
  const worker = new Worker(
    `import { tsImport } from 'tsx/esm/api'; await tsImport(${JSON.stringify(fileURLToPath(new URL('./load-worker.ts', import.meta.url)))}, import.meta.url);`,
    { eval: true, workerData: job },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', (m: { ok: boolean; result?: LoadResult; error?: string }) => {
      void worker.terminate();
      if (m.ok) resolve(m.result!);
      else reject(new Error(m.error));
    });
    worker.once('error', reject);
  });
}

/** Median cost of the main-thread steps of one place (and its cancel), for the report. */
function mainThreadCosts(): { name: string; us: number; per: string }[] {
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
  const viewing = generateX25519KeyPair().publicKey;
  const body = stringifyJson({ pad: 'ab'.repeat(700), n: 123456789n });
  return [
    {
      name: 'Poseidon, 3 inputs (opening hash, nullifier)',
      us: time(500, () => poseidon([6n, 2n, 3n])),
      per: '2',
    },
    {
      name: 'Poseidon, 5 inputs (note commitment)',
      us: time(500, () => poseidon([2n, 2n, 3n, 4n, 5n])),
      per: '1',
    },
    {
      name: 'Ed25519 strict verify',
      us: time(1000, () => ed25519VerifyStrict(pub, msg, sig)),
      per: '2 (place and cancel)',
    },
    { name: 'X25519 contributory check', us: time(1000, () => isContributoryX25519(viewing)), per: '1' },
    { name: 'exact JSON parse of an order body', us: time(1000, () => parseJsonExact(body)), per: '1' },
  ];
}

async function main(): Promise<void> {
  const venue = await startTestVenue({
    verifyInputProof: undefined,
    validInputKey: await loadVerificationKey('valid_input'),
    // The per-account bucket is policy, not capacity: lift it to measure the venue itself.
    orderRateLimit: { capacity: 1e9, refillPerSecond: 1e9 },
  });
  const { engine, ledger } = venue;
  const token = await login(venue.client, venue.admin);

  // One trader (trading key) and one note per lane; the notes are finalized, then proved once.
  const lanes = Array.from({ length: LANES }, () => venue.trader());
  const notes: Note[] = [];
  for (const [i, lane] of lanes.entries()) notes.push(await lane.deposit(USDC, 1_000_000n + BigInt(i)));
  const shard = engine.context.trees.shard(0)!;
  const prover = new NoteProver({ workers: 2 });
  await prover.start();
  const proveStart = performance.now();
  const proofs = await Promise.all(
    notes.map((n) =>
      prover.proveValidInput({
        note: {
          mint: parseAddress(USDC)!,
          amount: n.amount,
          spendingKey: n.spendingKey,
          noteInnerHash: BigInt('0x' + n.innerHash),
        },
        path: shard.proof(shard.indexOf(BigInt('0x' + n.commitment))!),
      }),
    ),
  );
  const provingS = (performance.now() - proveStart) / 1000;
  await prover.close();

  // Pre-signed, non-crossing bids: each lane's nonces increase in the order it sends them.
  const pairs = lanes.map((lane, i) =>
    Array.from({ length: ORDERS_PER_LANE }, () => {
      const body = lane.order(notes[i]!, {
        amount: 1_000_000n,
        price_limit: 1_000n,
        valid_input_proof: bytesToHex(proofs[i]!.proof),
      });
      return {
        place: stringifyJson(body),
        cancelPath: `/orders/${body.order_id}`,
        cancel: stringifyJson(lane.cancelBody(body.order_id)),
      };
    }),
  );

  // Slots keep passing during the load, so every auction tick runs as in production.
  const ticker = setInterval(() => void ledger.advanceSlots({ slots: 1 }), 400);
  const common = { url: engine.url, certPem: engine.certificate.certPem, token, durationMs: DURATION_MS };
  const half = (lane: number) => pairs.slice(lane * 32, lane * 32 + 32);
  const closed = await runLoad({ ...common, pairs: half(0), mode: 'closed', concurrency: 32 });
  if (closed.placed === 0) throw new Error(`no order was accepted: ${JSON.stringify(closed.rejected)}`);
  const rate = closed.placed / (closed.elapsedMs / 1000);
  const open = await runLoad({ ...common, pairs: half(1), mode: 'open', concurrency: 32, rate: rate / 2 });
  clearInterval(ticker);
  const openRate = open.placed / (open.elapsedMs / 1000);

  await venue.close();

  const matching = await benchMatching();
  const costs = mainThreadCosts();
  const fmt = (x: number, d = 0) =>
    x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const md = `# Engine benchmark

- Run: ${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} · Node ${process.version} · load average before/after ${loadavg()[0]?.toFixed(2)}
- Command: \`npm run bench -w packages/engine\`
- Setup: engine over HTTPS (keep-alive) in front of an in-process ledger whose slots pass every 400 ms; the load generator runs in its own worker thread on the same 2-core machine as the engine's main thread and its 2 proof-verifier workers. Every intake check is on, with real VALID_INPUT proofs (${LANES} notes proved once in ${fmt(provingS, 1)} s; each accepted order is then cancelled so its note can back the next one). The per-account rate limit is lifted for the run (it is policy, not capacity).

## Intake throughput and latency

| measure | value | target |
|---|---:|---|
| sustained accepted orders per second (closed loop, 32 in flight, ${fmt(DURATION_MS / 1000)} s; each also cancelled) | **${fmt(rate)}** | ≥ 1,000 |
| accepted in that run | ${fmt(closed.placed)} | |
| refusals in that run | ${JSON.stringify(closed.rejected)} | none |
| open loop at half that rate: achieved | ${fmt(openRate)} /s | |
| place latency p50 | **${fmt(percentile(open.latenciesMs, 50), 2)} ms** | |
| place latency p99 | **${fmt(percentile(open.latenciesMs, 99), 2)} ms** | < 10 ms |
| refusals in the open-loop run | ${JSON.stringify(open.rejected)} | none |

## Where an accepted order's CPU goes (main thread, measured in the same run)

| step | µs per call | per accepted order |
|---|---:|---|
${costs.map((c) => `| ${c.name} | ${fmt(c.us, 1)} | ${c.per} |`).join('\n')}

Besides these, each order's VALID_INPUT verification costs a verifier worker about 1.2 ms in
large batches and about 4 ms alone (see crypto.md), and the load generator's TLS and JSON run on the
same two cores as the main thread and both verifier workers. Verification alone bounds this machine
near 1,100 proofs per second (the pool figure in crypto.md) with both cores and nothing else running; with the HTTPS work of the
venue and of the client beside it, it tops out in the hundreds. Reaching 1,000/s with p99 under
10 ms needs more cores for the verifier pool and the load generator on another machine, and then
Poseidon off BigInt (a wasm field) as the next main-thread cost.

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
