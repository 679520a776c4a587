/**
 * Benchmarks of the crypto primitives, for the bench runner (bench/crypto.bench.ts) to call and
 * report. Each figure is the median of a few runs on the same process.
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { poseidon1 } from 'poseidon-lite/poseidon1';
import { poseidon2 as litePoseidon2 } from 'poseidon-lite/poseidon2';
import { poseidon3 } from 'poseidon-lite/poseidon3';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import { poseidon5 } from 'poseidon-lite/poseidon5';
import { poseidon6 } from 'poseidon-lite/poseidon6';
import { MerkleTree, poseidon, poseidon2 } from '../src/index.js';

export interface PoseidonBenchResult {
  /** Two-input Poseidon (the Merkle node hash) as the venue computes it. */
  hashesPerSecond: number;
  /** The same hash through poseidon-lite's generic implementation, for comparison. */
  poseidonLiteHashesPerSecond: number;
  /** hashesPerSecond / poseidonLiteHashesPerSecond. */
  speedup: number;
  hashesPerRun: number;
  runs: number;
  /**
   * Per number of inputs n = 1..6 (flat, so the report's table shows them): `poseidon([...])` as
   * the venue computes it (input checks included) and poseidon-lite's `poseidonN`, hashes per
   * second, measured interleaved in the same run over `perArityHashesPerRun` hashes per run.
   */
  arity1HashesPerSecond: number;
  arity1LiteHashesPerSecond: number;
  arity2HashesPerSecond: number;
  arity2LiteHashesPerSecond: number;
  arity3HashesPerSecond: number;
  arity3LiteHashesPerSecond: number;
  arity4HashesPerSecond: number;
  arity4LiteHashesPerSecond: number;
  arity5HashesPerSecond: number;
  arity5LiteHashesPerSecond: number;
  arity6HashesPerSecond: number;
  arity6LiteHashesPerSecond: number;
  perArityHashesPerRun: number;
}

export interface TreeAppendBenchResult {
  /** Leaves appended per second to a depth-20 tree, root read once at the end (bulk load / replay). */
  appendsPerSecond: number;
  /** Median wall time of one run of n appends plus the final root read. */
  totalMs: number;
  /** Appends per second when the root is read after every append (one deposit per instruction). */
  appendsWithRootPerSecond: number;
  n: number;
  runs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Deterministic leaves that look like commitments (uniform field elements). */
function benchLeaves(count: number): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const digest = createHash('sha256').update(`bench-leaf-${i}`).digest('hex');
    out.push(BigInt('0x' + digest) % FIELD_MODULUS);
  }
  return out;
}

function hashChainMs(hashes: number, hash: (a: bigint, b: bigint) => bigint): number {
  let a = 1n;
  let b = FIELD_MODULUS - 2n;
  const start = performance.now();
  for (let i = 0; i < hashes; i++) {
    const next = hash(a, b);
    a = b;
    b = next;
  }
  const elapsed = performance.now() - start;
  if (b === -1n) throw new Error('unreachable: keeps the chain observable');
  return elapsed;
}

/** Time `hashes` chained hashes of `arity` inputs (the output replaces one input each time). */
function arityChainMs(hashes: number, arity: number, hash: (inputs: bigint[]) => bigint): number {
  const inputs = Array.from({ length: arity }, (_, i) => FIELD_MODULUS - 2n - BigInt(i));
  const start = performance.now();
  for (let i = 0; i < hashes; i++) inputs[i % arity] = hash(inputs);
  const elapsed = performance.now() - start;
  if (inputs[0] === -1n) throw new Error('unreachable: keeps the chain observable');
  return elapsed;
}

const LITE_BY_ARITY: readonly ((inputs: bigint[]) => bigint)[] = [
  poseidon1,
  litePoseidon2,
  poseidon3,
  poseidon4,
  poseidon5,
  poseidon6,
];

type ArityFigures = Pick<
  PoseidonBenchResult,
  `arity${1 | 2 | 3 | 4 | 5 | 6}${'' | 'Lite'}HashesPerSecond` | 'perArityHashesPerRun'
>;

async function benchPoseidonArities(hashes: number, runs: number): Promise<ArityFigures> {
  const figures: Record<string, number> = { perArityHashesPerRun: hashes };
  for (let arity = 1; arity <= LITE_BY_ARITY.length; arity++) {
    const lite = LITE_BY_ARITY[arity - 1]!;
    arityChainMs(Math.min(200, hashes), arity, poseidon); // warm-up (JIT)
    arityChainMs(Math.min(200, hashes), arity, lite);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let run = 0; run < runs; run++) {
      ours.push(arityChainMs(hashes, arity, poseidon));
      theirs.push(arityChainMs(hashes, arity, lite));
      await yieldToEventLoop();
    }
    figures[`arity${arity}HashesPerSecond`] = (hashes / median(ours)) * 1000;
    figures[`arity${arity}LiteHashesPerSecond`] = (hashes / median(theirs)) * 1000;
  }
  return figures as unknown as ArityFigures;
}

export async function benchPoseidon(
  options: { hashes?: number; runs?: number; perArityHashes?: number } = {},
): Promise<PoseidonBenchResult> {
  const hashes = options.hashes ?? 20_000;
  const runs = options.runs ?? 5;
  const lite = (a: bigint, b: bigint): bigint => litePoseidon2([a, b]);
  hashChainMs(Math.min(2_000, hashes), poseidon2); // warm-up (JIT)
  hashChainMs(Math.min(2_000, hashes), lite);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let run = 0; run < runs; run++) {
    ours.push(hashChainMs(hashes, poseidon2));
    theirs.push(hashChainMs(hashes, lite));
    await yieldToEventLoop();
  }
  const hashesPerSecond = (hashes / median(ours)) * 1000;
  const poseidonLiteHashesPerSecond = (hashes / median(theirs)) * 1000;
  return {
    hashesPerSecond,
    poseidonLiteHashesPerSecond,
    speedup: hashesPerSecond / poseidonLiteHashesPerSecond,
    hashesPerRun: hashes,
    runs,
    ...(await benchPoseidonArities(options.perArityHashes ?? 500, runs)),
  };
}

export async function benchTreeAppends(
  n = 100_000,
  options: { runs?: number; appendsWithRoot?: number } = {},
): Promise<TreeAppendBenchResult> {
  const runs = options.runs ?? 3;
  const leaves = benchLeaves(Math.max(n, options.appendsWithRoot ?? 200));

  const bulk: number[] = [];
  for (let run = 0; run < runs; run++) {
    const tree = new MerkleTree(20);
    const start = performance.now();
    for (let i = 0; i < n; i++) tree.append(leaves[i]!);
    void tree.root;
    bulk.push(performance.now() - start);
    await yieldToEventLoop();
  }

  const withRoot = options.appendsWithRoot ?? 200;
  const perRoot: number[] = [];
  for (let run = 0; run < runs; run++) {
    const tree = new MerkleTree(20);
    const start = performance.now();
    for (let i = 0; i < withRoot; i++) {
      tree.append(leaves[i]!);
      void tree.root;
    }
    perRoot.push(performance.now() - start);
    await yieldToEventLoop();
  }

  const totalMs = median(bulk);
  return {
    appendsPerSecond: (n / totalMs) * 1000,
    totalMs,
    appendsWithRootPerSecond: (withRoot / median(perRoot)) * 1000,
    n,
    runs,
  };
}
