/**
 * Poseidon side by side in one run: our BigInt permutation (what `poseidon()` ran before the
 * WebAssembly one), circomlibjs, @railgun-community/poseidon-hash-wasm (Rust compiled to wasm) and
 * ours in WebAssembly, at 2, 3 and 5 inputs, plus the 2-input Merkle node hash. Every figure is µs
 * per call from JavaScript, bigint in and bigint out (conversions included), the median of
 * interleaved runs so that other load on the shared machine hits all rows alike.
 */
import { buildPoseidon } from 'circomlibjs';
import { poseidon as railgunPoseidon } from '@railgun-community/poseidon-hash-wasm';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { BIGINT_POSEIDON } from '../src/poseidon-fast.js';
import {
  POSEIDON_UNCHECKED,
  poseidonImplementation,
  poseidonT3Unchecked,
} from '../src/poseidon-unchecked.js';
import { poseidon, poseidon2 } from '../src/poseidon.js';

type Hash = (inputs: bigint[]) => bigint;

export const POSEIDON_BENCH_ARITIES = [2, 3, 5] as const;

export interface PoseidonRow {
  name: string;
  /** Median µs per call, by number of inputs. */
  micros: Record<number, number>;
}

export interface PoseidonBenchResult {
  rows: PoseidonRow[];
  /** Merkle node hash Poseidon(left, right), µs per call. */
  node: PoseidonRow[];
  hashesPerRun: number;
  runs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** µs per hash over a chain of `hashes` (each output replaces one input, so no call repeats). */
function chainMicros(hashes: number, arity: number, hash: Hash): number {
  const inputs = Array.from({ length: arity }, (_, i) => FIELD_MODULUS - 2n - BigInt(i));
  const start = performance.now();
  for (let i = 0; i < hashes; i++) inputs[i % arity] = hash(inputs);
  const elapsed = performance.now() - start;
  if (inputs[0] === -1n) throw new Error('unreachable: keeps the chain observable');
  return (elapsed * 1000) / hashes;
}

/** Runs each of `hashes` `runs` times, interleaved (one run of each per round), after a warm-up. */
function interleaved(
  impls: ReadonlyArray<readonly [string, Hash]>,
  arity: number,
  hashes: number,
  runs: number,
) {
  for (const [, hash] of impls) chainMicros(Math.max(50, hashes >> 2), arity, hash); // JIT and tier-up
  const samples = impls.map(() => [] as number[]);
  for (let run = 0; run < runs; run++)
    impls.forEach(([, hash], i) => samples[i]!.push(chainMicros(hashes, arity, hash)));
  return samples.map(median);
}

export async function benchPoseidonComparison(
  options: { hashes?: number; runs?: number } = {},
): Promise<PoseidonBenchResult> {
  const hashes = options.hashes ?? 400;
  const runs = options.runs ?? 11;
  for (const arity of POSEIDON_BENCH_ARITIES) {
    if (poseidonImplementation(arity) !== 'wasm')
      throw new Error(`the wasm permutation is not in use for ${arity}`);
  }
  const circomlib = await buildPoseidon();
  const impls = (arity: number): [string, Hash][] => [
    ['ours before: BigInt permutation (unchecked)', BIGINT_POSEIDON[arity]!],
    ['circomlibjs `buildPoseidon`', (inputs) => circomlib.F.toObject(circomlib(inputs))],
    ['@railgun-community/poseidon-hash-wasm', railgunPoseidon],
    ['ours: WebAssembly permutation (unchecked)', POSEIDON_UNCHECKED[arity]!],
    ['ours: `poseidon()` (range checks + WebAssembly)', poseidon],
  ];
  const names = impls(2).map(([name]) => name);
  const rows: PoseidonRow[] = names.map((name) => ({ name, micros: {} }));
  for (const arity of POSEIDON_BENCH_ARITIES) {
    interleaved(impls(arity), arity, hashes, runs).forEach((us, i) => (rows[i]!.micros[arity] = us));
  }

  const bigintPair = BIGINT_POSEIDON[2]!;
  const pairs: [string, Hash][] = [
    ['ours before: BigInt permutation, [left, right]', bigintPair],
    ['ours: `poseidonT3Unchecked(left, right)` (the tree hasher)', (x) => poseidonT3Unchecked(x[0]!, x[1]!)],
    ['ours: `poseidon2(left, right)` (range checks)', (x) => poseidon2(x[0]!, x[1]!)],
  ];
  const node = interleaved(pairs, 2, hashes * 2, runs).map((us, i) => ({
    name: pairs[i]![0],
    micros: { 2: us },
  }));
  return { rows, node, hashesPerRun: hashes, runs };
}

const fmt = (v: number | undefined): string => (v === undefined ? '–' : v.toFixed(1));

export function poseidonMarkdown(result: PoseidonBenchResult): string {
  const base = result.rows[0]!.micros;
  const header = POSEIDON_BENCH_ARITIES.map((n) => `${n} inputs`).join(' | ');
  const align = POSEIDON_BENCH_ARITIES.map(() => '---:').join('|');
  return [
    '## Poseidon',
    '',
    `µs per call from JavaScript, bigint inputs to bigint output (conversions included): the median of ${result.runs}`,
    `interleaved runs of ${result.hashesPerRun} chained hashes each (every output replaces one input). "ours before" is the`,
    'BigInt permutation that `poseidon()` ran before the WebAssembly one (it stays as the fallback).',
    'The WebAssembly permutation is generated by `packages/crypto/scripts/build-poseidon-wasm.ts`:',
    'Montgomery form with 9 limbs of 29 bits, Karatsuba products, two-lane SIMD where two',
    'independent operations are at hand, sparse partial rounds taken two at a time.',
    'To run only this section: `npm run bench -w packages/crypto -- poseidon`.',
    '',
    `| implementation | ${header} | vs before at 5 |`,
    `|---|${align}|---:|`,
    ...result.rows.map(
      (r) =>
        `| ${r.name} | ${POSEIDON_BENCH_ARITIES.map((n) => fmt(r.micros[n])).join(' | ')} | ${(base[5]! / r.micros[5]!).toFixed(1)}x |`,
    ),
    '',
    'Merkle node hash, Poseidon(left, right):',
    '',
    '| implementation | µs per call |',
    '|---|---:|',
    ...result.node.map((r) => `| ${r.name} | ${fmt(r.micros[2])} |`),
  ].join('\n');
}
