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
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { deriveNote, generateX25519KeyPair, ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import {
  addressToBase58,
  bytesToHex,
  ed25519PublicKey,
  encodeCancelBody,
  encodeOrderBody,
  fieldToHex,
  orderSigningFields,
  parseAddress,
  signCanonical,
  stringifyJson,
  type PlaceOrderBody,
} from '@nightjar/protocol';
import {
  COMMITMENT_LAG,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  mintAddress,
  signTransaction,
} from '@nightjar/ledger';
import { startEngine } from '../src/index.js';
import { HttpsClient } from '../test/https-client.js';
import { benchMatching } from './matching.bench.js';
import type { LoadJob, LoadResult } from './load-worker.js';

const USDC = mintAddress('USDC');
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

async function main(): Promise<void> {
  const ledger = Ledger.open({ clock: { mode: 'manual' }, verifier: { verify: async () => true } });
  await ensureDevGenesis(ledger, loadOrCreateDevKeys(undefined));
  const engine = await startEngine({
    ledger,
    port: 0,
    dev: true,
    validInputKey: await loadVerificationKey('valid_input'),
    // The per-account bucket is policy, not capacity: lift it to measure the venue itself.
    orderRateLimit: { capacity: 1e9, refillPerSecond: 1e9 },
    hasher: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
  });
  const client = new HttpsClient(engine.url, engine.certificate.certPem);
  const admin = engine.devAdmin!;
  const login = await client.send('/auth/token', { body: admin });
  const token = login.body.access_token as string;

  // Notes: one per lane, deposited, finalized, then proved once against the final root.
  const wallet = Uint8Array.from(randomBytes(32));
  const walletAddress = addressToBase58(ed25519PublicKey(wallet));
  await ledger.requestAirdrop({ owner: walletAddress, mint: USDC, amount: String(10 ** 12) });
  const notes = [];
  for (let i = 0; i < LANES; i++) {
    const spendingKey = randomFieldElement();
    const inner = randomFieldElement();
    const amount = 1_000_000n + BigInt(i);
    const oc = ownerCommitment(spendingKey);
    const d = deriveNote({ mint: parseAddress(USDC)!, amount, ownerCommitment: oc, noteInnerHash: inner });
    const tx = signTransaction(wallet, BigInt(i + 1), {
      name: 'deposit',
      args: {
        tree_id: 0,
        mint: USDC,
        amount: amount.toString(),
        note_commitment: fieldToHex(d.noteCommitment),
        opening_hash: fieldToHex(d.openingHash),
      },
    });
    await ledger.sendTransaction({ transaction: tx });
    notes.push({ spendingKey, inner, amount, oc: fieldToHex(oc), commitment: fieldToHex(d.noteCommitment) });
  }
  await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
  await engine.context.trees.checkAgainstChain();
  const shard = engine.context.trees.shard(0)!;
  const root = fieldToHex(shard.root);
  const prover = new NoteProver({ workers: 2 });
  await prover.start();
  const proveStart = performance.now();
  const proofs = await Promise.all(
    notes.map((n, i) =>
      prover.proveValidInput({
        note: {
          mint: parseAddress(USDC)!,
          amount: n.amount,
          spendingKey: n.spendingKey,
          noteInnerHash: n.inner,
        },
        path: shard.proof(i),
      }),
    ),
  );
  const provingS = (performance.now() - proveStart) / 1000;
  await prover.close();

  // Pre-signed orders: per lane one trading key, increasing nonces, non-crossing bids.
  const viewing = bytesToHex(generateX25519KeyPair().publicKey);
  const startSlot = BigInt(engine.context.chain.slot);
  const pairs = notes.map((n, lane) => {
    const seed = Uint8Array.from(randomBytes(32));
    const tradingKey = bytesToHex(ed25519PublicKey(seed));
    return Array.from({ length: ORDERS_PER_LANE }, (_, k) => {
      const body: PlaceOrderBody = {
        symbol: 'SOL-USDC',
        side: 'bid',
        order_type: 'limit',
        amount: 1_000_000n,
        price_limit: 1_000n,
        expiry_slot: startSlot + 4000n,
        order_id: bytesToHex(randomBytes(16)),
        arrival_nonce: BigInt(k + 1),
        note_commitment: n.commitment,
        collateral_amount: n.amount,
        owner_commitment: n.oc,
        note_inner_hash: fieldToHex(n.inner),
        merkle_root: root,
        valid_input_proof: bytesToHex(proofs[lane]!.proof),
        tree_id: 0,
        viewing_pubkey: viewing,
        session_id: engine.bootSessionId,
        trading_key: tradingKey,
        trading_key_signature: '',
      };
      body.trading_key_signature = signCanonical(seed, encodeOrderBody(orderSigningFields(body)));
      const cancelSig = signCanonical(
        seed,
        encodeCancelBody({
          order_id: body.order_id,
          trading_key: tradingKey,
          cancel_nonce: BigInt(k + 1),
          session_id: engine.bootSessionId,
        }),
      );
      return {
        place: stringifyJson(body),
        cancelPath: `/orders/${body.order_id}`,
        cancel: stringifyJson({
          trading_key: tradingKey,
          cancel_nonce: String(k + 1),
          session_id: engine.bootSessionId,
          trading_key_signature: cancelSig,
        }),
      };
    });
  });

  // Slots keep passing during the load, so every auction tick runs as in production.
  const ticker = setInterval(() => void ledger.advanceSlots({ slots: 1 }), 400);
  const common = { url: engine.url, certPem: engine.certificate.certPem, token, durationMs: DURATION_MS };
  const half = (lane: number) => pairs.slice(lane * 32, lane * 32 + 32);
  const closed = await runLoad({ ...common, pairs: half(0), mode: 'closed', concurrency: 32 });
  const rate = closed.placed / (closed.elapsedMs / 1000);
  const open = await runLoad({ ...common, pairs: half(1), mode: 'open', concurrency: 32, rate: rate / 2 });
  clearInterval(ticker);
  const openRate = open.placed / (open.elapsedMs / 1000);

  client.close();
  await engine.close();
  await ledger.close();

  const matching = await benchMatching();
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
