/**
 * Benchmarks of the Merkle tree, for the bench runner (bench/crypto.bench.ts) to call and
 * report. Each figure is the median of a few runs on the same process.
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { MerkleTree } from '../src/index.js';
import { median } from './stats.js';

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

/** Deterministic leaves that look like commitments (uniform field elements). */
function benchLeaves(count: number): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const digest = createHash('sha256').update(`bench-leaf-${i}`).digest('hex');
    out.push(BigInt('0x' + digest) % FIELD_MODULUS);
  }
  return out;
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
