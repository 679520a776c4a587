/**
 * Note management benchmark (issue 19; results in docs/benchmarks/sdk.md):
 *  1. VALID_JOIN_SPLIT proving, side by side in one run: the native prover (what the SDK uses when
 *     the addon built) against snarkjs, for a 1 → 8 split and a 4 → 1 merge;
 *  2. a 1 → 8 split and a 4 → 1 merge through the SDK against a real venue (`nightjar start` in its
 *     own process: 400 ms slots, real proofs checked by its ledger): proving, sending until landed,
 *     and landed until usable for orders (the venue's tree has the outputs: finalization);
 *  3. from one deposit per side to a 10-level two-sided ladder (20 orders) resting in the book.
 *
 *   npx tsx packages/cli/bench/note-management.bench.ts      (ROUNDS=3 by default; PARTS=proving,venue)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { NoteProver, nativeProverAvailable } from '@nightjar/circuits';
import { mintAddress } from '@nightjar/ledger';
import {
  MerkleTree,
  depositInner,
  noteCommitment,
  openingHash,
  ownerCommitment,
  randomFieldElement,
} from '@nightjar/crypto';
import { mintToFields, parseAddress } from '@nightjar/protocol';
import {
  createClient,
  createWallet,
  deposit,
  mergeNotes,
  placeOrders,
  splitNote,
  type Client,
  type Credentials,
  type JoinSplitProgress,
  waitForInclusion,
} from '@nightjar/sdk';

import { readReady, type Paths } from '../src/config.js';
import { pinnedRoot } from '../src/connect.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BIN = fileURLToPath(new URL('../bin/nightjar.mjs', import.meta.url));
const SYMBOL = 'SOL-USDC';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const fmt = (xs: number[]) => `${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(', ')})`;

/* ---------- 1. proving, native vs snarkjs ---------- */

const MINT = parseAddress(mintAddress('USDC'))!;

function proofRequests() {
  const sk = randomFieldElement();
  const owner = ownerCommitment(sk);
  const { mintLo, mintHi } = mintToFields(MINT);
  const tree = new MerkleTree();
  tree.append(1n);
  const notes = [4_000n, 3_000n, 2_000n, 1_000n].map((amount, i) => {
    const inner = depositInner(randomFieldElement(), BigInt(i));
    const c = noteCommitment({ mintLo, mintHi, amount, openingHash: openingHash(owner, inner) });
    return { amount, inner, index: tree.append(c) };
  });
  const input = (n: (typeof notes)[number]) => ({
    amount: n.amount,
    noteInnerHash: n.inner,
    path: tree.proof(n.index),
  });
  const memo = new Uint8Array(177).fill(3);
  const split = {
    spendingKey: sk,
    mint: MINT,
    inputs: [input(notes[0]!)],
    outputAmounts: [500n, 500n, 500n, 500n, 500n, 500n, 500n, 500n],
    outputTreeIds: Array(8).fill(0),
    memo,
  };
  const merge = {
    spendingKey: sk,
    mint: MINT,
    inputs: notes.map(input),
    outputAmounts: [10_000n],
    outputTreeIds: [0],
    memo,
  };
  return { split, merge };
}

/** A prover whose workers run snarkjs (the backend is chosen when a worker starts). */
async function snarkjsProver(): Promise<NoteProver> {
  const before = process.env.NIGHTJAR_PROVER;
  process.env.NIGHTJAR_PROVER = 'snarkjs';
  const p = new NoteProver();
  await p.start();
  if (before === undefined) delete process.env.NIGHTJAR_PROVER;
  else process.env.NIGHTJAR_PROVER = before;
  return p;
}

async function provingSideBySide(): Promise<string[]> {
  const provers: [string, NoteProver][] = [
    ['snarkjs (all cores)', await snarkjsProver()],
    [nativeProverAvailable() ? 'native addon (2 threads)' : 'native unavailable: snarkjs', new NoteProver()],
  ];
  const { split, merge } = proofRequests();
  const times = provers.map(() => ({ split: [] as number[], merge: [] as number[] }));
  try {
    for (const [, p] of provers) {
      await p.proveValidJoinSplit(split); // warm-up: artifacts load, key parse
    }
    for (let r = 0; r < ROUNDS; r++)
      for (const [i, [, p]] of provers.entries())
        for (const kind of ['split', 'merge'] as const) {
          const t0 = performance.now();
          await p.proveValidJoinSplit(kind === 'split' ? split : merge);
          times[i]![kind].push(performance.now() - t0);
        }
  } finally {
    await Promise.all(provers.map(([, p]) => p.close()));
  }
  const base = { split: median(times[0]!.split), merge: median(times[0]!.merge) };
  return provers.flatMap(([label], i) =>
    (['split', 'merge'] as const).map(
      (kind) =>
        `| ${kind === 'split' ? '1 → 8 split' : '4 → 1 merge'} | ${label} | ${fmt(times[i]![kind])} | ${(base[kind] / median(times[i]![kind])).toFixed(2)}x |`,
    ),
  );
}

/* ---------- 2 and 3: against a real venue ---------- */

async function startVenue(dataDir: string): Promise<{ paths: Paths; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'start', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const ready = join(dataDir, 'ready.json');
  const deadline = Date.now() + 120_000;
  // The venue writes ready.json once it serves; a bench may poll for it.
  while (!existsSync(ready)) {
    if (child.exitCode !== null) throw new Error(`nightjar start exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('the venue did not start within 120 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  JSON.parse(readFileSync(ready, 'utf8'));
  return {
    paths: { dataDir, home: join(dataDir, 'cli') },
    stop: async () => {
      child.kill('SIGINT');
      await exited;
    },
  };
}

async function traderClient(paths: Paths, prover: NoteProver): Promise<Client> {
  const ready = readReady(paths);
  const base = {
    baseUrl: ready.base_url,
    pinnedRoot: pinnedRoot(ready),
    composeHash: ready.compose_hash,
    ledgerUrl: ready.ledger_url,
    // The faucet (requestAirdrop) needs the dev ledger's secret.
    ...(ready.ledger_dev_secret ? { ledgerDevSecret: ready.ledger_dev_secret } : {}),
  };
  const admin = await createClient({ ...base, credentials: ready.admin! });
  const creds = await admin.request<Credentials>('/admin/accounts', {
    method: 'POST',
    body: { label: 'bench' },
  });
  await admin.close();
  return createClient({ ...base, credentials: creds, wallet: createWallet(), prover });
}

/** Deposits one note per entry (sent in turn: one funding nonce each), then waits until all are usable. */
async function fundedNotes(client: Client, notes: { mint: string; amount: bigint }[]): Promise<void> {
  const owner = client.wallet.keys.funding.address;
  const made: string[] = [];
  for (const { mint, amount } of notes) {
    await client.ledger.requestAirdrop({ owner, mint, amount: amount.toString() });
    made.push((await deposit(client, { mint, amount, wait: 'landed' })).note.commitment);
  }
  await Promise.all(
    made.map((c) => waitForInclusion(client, { commitment: c, intervalMs: 100, timeoutMs: 60_000 })),
  );
}

/** Times each stage of a join-split from its progress events. */
function stageClock() {
  const at: Partial<Record<JoinSplitProgress['stage'], number>> = {};
  const t0 = performance.now();
  return {
    onProgress: (p: JoinSplitProgress) => {
      at[p.stage] = performance.now();
    },
    result: () => ({
      prove: (at.sending ?? NaN) - (at.proving ?? NaN),
      land: (at.landed ?? NaN) - (at.sending ?? NaN),
      usable: (at.usable ?? NaN) - (at.landed ?? NaN),
      total: (at.usable ?? NaN) - t0,
    }),
  };
}

type Stages = ReturnType<ReturnType<typeof stageClock>['result']>;

async function splitAndMerge(
  paths: Paths,
  prover: NoteProver,
): Promise<{ split: Stages[]; merge: Stages[] }> {
  const client = await traderClient(paths, prover);
  const inst = await client.instrument(SYMBOL);
  const mint = inst.quote_mint;
  const out = { split: [] as Stages[], merge: [] as Stages[] };
  try {
    await fundedNotes(client, [{ mint, amount: 8_000_000_000n }]);
    for (let r = 0; r < ROUNDS; r++) {
      const s = stageClock();
      const split = await splitNote(client, { mint, into: 8, onProgress: s.onProgress });
      out.split.push(s.result());
      const m = stageClock();
      const merged = await mergeNotes(client, {
        mint,
        commitments: split.notes.slice(0, 4).map((n) => n.commitment),
        onProgress: m.onProgress,
      });
      out.merge.push(m.result());
      // Next round splits the merged note's sibling pool again: merge the rest back first.
      await mergeNotes(client, {
        mint,
        commitments: [merged.note.commitment, ...split.notes.slice(4, 7).map((n) => n.commitment)],
      });
    }
  } finally {
    await client.close();
  }
  return out;
}

async function ladder(paths: Paths, prover: NoteProver): Promise<Record<string, number>> {
  const client = await traderClient(paths, prover);
  try {
    const inst = await client.instrument(SYMBOL);
    const t0 = performance.now();
    await fundedNotes(client, [
      { mint: inst.quote_mint, amount: 2_000_000_000n }, // 2,000 USDC
      { mint: inst.base_mint, amount: 20_000_000_000n }, // 20 SOL
    ]);
    const funded = performance.now();
    // Ten levels a side, far from any other order so nothing matches.
    const orders = Array.from({ length: 10 }, (_, i) => [
      { symbol: SYMBOL, side: 'bid' as const, amount: '1', price: String(100 - i), expiry: { seconds: 600 } },
      { symbol: SYMBOL, side: 'ask' as const, amount: '1', price: String(200 + i), expiry: { seconds: 600 } },
    ]).flat();
    let firstSplit = NaN;
    let splitsUsable = NaN;
    const { results, splits } = await placeOrders(client, {
      orders,
      onProgress: (p) => {
        if (p.stage === 'proving' && Number.isNaN(firstSplit)) firstSplit = performance.now();
        if (p.stage === 'usable') splitsUsable = performance.now();
      },
    });
    const done = performance.now();
    const accepted = results.filter((r) => r.status === 'success').length;
    if (accepted !== orders.length)
      throw new Error(
        `ladder: ${accepted} of ${orders.length} accepted: ${results.map((r) => (r.status === 'failure' ? r.error.message : 'ok')).join('; ')}`,
      );
    return {
      orders: orders.length,
      splits: splits.length,
      depositsToUsableMs: funded - t0,
      splitsMs: splitsUsable - funded,
      ordersMs: done - splitsUsable,
      totalMs: done - t0,
      fromFundedMs: done - funded,
    };
  } finally {
    await client.close();
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'nightjar-notes-bench-'));
const PARTS = (process.env.PARTS ?? 'proving,venue').split(',');
try {
  if (PARTS.includes('proving')) {
    console.log(`## VALID_JOIN_SPLIT proving, ${ROUNDS} rounds side by side (ms: median (runs))\n`);
    console.log('| proof | prover | ms | vs snarkjs |\n|---|---|---:|---:|');
    for (const row of await provingSideBySide()) console.log(row);
  }
  if (PARTS.includes('venue')) {
    const venue = await startVenue(dataDir);
    const prover = new NoteProver();
    try {
      const sm = await splitAndMerge(venue.paths, prover);
      console.log(
        `\n## Through the SDK against \`nightjar start\` (400 ms slots), ${ROUNDS} rounds (ms: median (runs))\n`,
      );
      console.log('| action | prove | send → landed | landed → usable | total |\n|---|---:|---:|---:|---:|');
      for (const kind of ['split', 'merge'] as const) {
        const xs = sm[kind];
        const col = (k: keyof Stages) => fmt(xs.map((x) => x[k]));
        console.log(
          `| ${kind === 'split' ? '1 → 8 split' : '4 → 1 merge'} | ${col('prove')} | ${col('land')} | ${col('usable')} | ${col('total')} |`,
        );
      }
      const l = await ladder(venue.paths, prover);
      console.log('\n## One deposit per side → a 10-level two-sided ladder resting\n');
      console.log(JSON.stringify(l, null, 2));
    } finally {
      await prover.close();
      await venue.stop();
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
