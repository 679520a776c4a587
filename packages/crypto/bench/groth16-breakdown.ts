/**
 * Groth16 batch breakdown: where a proof's time goes when VALID_INPUT proofs are verified in
 * batches of 64 on one thread, step by step, for the batch path before the speed-ups
 * (bench/groth16-before, a frozen copy) and the current one, side by side in one run.
 *
 * Each path runs its valid-batch steps in order with a clock read between steps (the "before" copy
 * carries its own step-by-step method; the current path is composed below from the same src
 * functions `verifyBatch` uses). The end-to-end `verifyBatch` of both is timed in the same rounds.
 * Figures are CPU time of this process per proof (less sensitive to the other load on a shared
 * machine than wall time), median over rounds; the paths alternate order from round to round.
 *
 * Run on its own: `npm run bench -w packages/crypto -- --only=groth16-breakdown` (prints the
 * section; the full bench also writes it into docs/benchmarks/crypto.md).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import mcl from 'mcl-wasm';
import {
  COEFFICIENT_BYTES,
  coefficientsFromBytes,
  combine,
  scaleEach,
} from '../src/groth16/batch-coefficients.js';
import { isInG2Subgroup } from '../src/groth16/g2-subgroup.js';
import { millerLoopProduct } from '../src/groth16/mcl-wasm.js';
import { Groth16Verifier, initMcl, type ProofItem } from '../src/groth16/mcl-verifier.js';
import {
  alphaBetaPower,
  combinedPublicInputTerm,
  prepareKey,
  publicInputsOf,
  type PreparedKey,
} from '../src/groth16/prepared-key.js';
import {
  assertProofLength,
  firstOutOfRangeCoordinate,
  parseVerificationKey,
  publicSignalsToBytes,
  snarkjsProofToBytes,
} from '../src/groth16/proof-format.js';
import { curveStatus, decodeProofPoints, type ProofPoints } from '../src/groth16/proof-points.js';
import { Groth16Verifier as BeforeVerifier } from './groth16-before/mcl-verifier.js';
import type { VerificationBenchSet } from './valid-input-proofs.js';

/** The steps, in pipeline order. Both paths report every step under these names. */
export const BREAKDOWN_STEPS = [
  'public inputs',
  'coordinate range',
  'point decoding',
  'on-curve checks',
  'G2 subgroup check',
  'random coefficients',
  'r·A',
  'public-input MSM',
  'C aggregate',
  'Miller loop',
  'final exponentiation',
  'e(alpha, beta)^sum(r) and compare',
] as const;
export type BreakdownStep = (typeof BREAKDOWN_STEPS)[number];

const STEP_NOTES: Record<BreakdownStep, string> = {
  'public inputs': 'shape checks, bytes → field elements, each < r',
  'coordinate range': 'every coordinate < p',
  'point decoding': 'bytes → mcl G1/G2 values',
  'on-curve checks': 'A, C on G1; B on the twist',
  'G2 subgroup check': 'B in the order-r subgroup, per proof',
  'random coefficients': 'CSPRNG bytes → coefficients',
  'r·A': 'coefficient times A, then one batched normalisation',
  'public-input MSM': 'coefficient sums and the MSM over the IC points',
  'C aggregate': 'Σ coefficient·C as one MSM',
  'Miller loop': 'one multi-Miller loop over n + 2 pairs',
  'final exponentiation': 'one per batch',
  'e(alpha, beta)^sum(r) and compare': 'one GT exponentiation per batch',
};

type Mark = (step: BreakdownStep) => void;

interface BreakdownPath {
  name: string;
  verifyBatch(items: readonly ProofItem[]): boolean[];
  breakdown(items: readonly ProofItem[], mark: Mark): boolean;
}

/** The current batch path, step by step: the calls `Groth16Verifier.verifyBatch` makes. */
function currentBreakdown(key: PreparedKey, items: readonly ProofItem[], mark: Mark): boolean {
  const inputs = items.map((item) => {
    assertProofLength(item.proof);
    const x = publicInputsOf(key, item.publicInputs);
    if (x === undefined) throw new Error('bench: public input out of range');
    return x;
  });
  mark('public inputs');
  for (const item of items) {
    if (firstOutOfRangeCoordinate(item.proof) >= 0) throw new Error('bench: coordinate out of range');
  }
  mark('coordinate range');
  const points = items.map((item) => {
    const p = decodeProofPoints(item.proof);
    if (typeof p === 'string') throw new Error(`bench: ${p}`);
    return p;
  });
  mark('point decoding');
  for (const p of points) if (curveStatus(p) !== 'ok') throw new Error('bench: not on curve');
  mark('on-curve checks');
  for (const p of points) if (!isInG2Subgroup(p.b)) throw new Error('bench: not in G2');
  mark('G2 subgroup check');
  const n = items.length;
  const k = coefficientsFromBytes(randomBytes(COEFFICIENT_BYTES * n), n);
  mark('random coefficients');
  const rA = scaleEach(
    points.map((p) => p.a),
    k,
  );
  mark('r·A');
  const subset = points.map((_, i) => i);
  const { term, sumRho } = combinedPublicInputTerm(key, inputs, k.rho, subset);
  mark('public-input MSM');
  const cSum = combine(
    points.map((p) => p.c),
    k,
    subset,
  );
  mark('C aggregate');
  const extra = [mcl.neg(term), mcl.neg(cSum)];
  mcl.normalizeVec(extra);
  const ml = millerLoopProduct(
    [...rA, ...extra],
    [...points.map((p: ProofPoints) => p.b), key.gamma, key.delta],
  );
  mark('Miller loop');
  const lhs = mcl.finalExp(ml);
  mark('final exponentiation');
  const ok = lhs.isEqual(alphaBetaPower(key, sumRho));
  mark('e(alpha, beta)^sum(r) and compare');
  return ok;
}

/** CPU time of this process in µs (all threads; the benchmark itself runs on one). */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

interface PathSamples {
  steps: Map<BreakdownStep, number[]>;
  cpu: number[];
  wall: number[];
}

export interface BreakdownPathResult {
  name: string;
  /** Median CPU µs per proof of each step. */
  steps: Record<BreakdownStep, number>;
  /** Sum of the step medians. */
  stepSum: number;
  /** `verifyBatch` end to end: median CPU µs per proof, wall µs per proof, proofs/s (wall). */
  cpuPerProof: number;
  wallPerProof: number;
  proofsPerSecond: number;
  cpuSamples: number[];
}

export interface BreakdownResult {
  label: string;
  batchSize: number;
  rounds: number;
  before: BreakdownPathResult;
  after: BreakdownPathResult;
}

export interface BreakdownOptions {
  batchSize?: number;
  /** Measured rounds (default 15), after 2 warm-up rounds. */
  rounds?: number;
}

export async function benchGroth16Breakdown(
  set: VerificationBenchSet,
  options: BreakdownOptions = {},
): Promise<BreakdownResult> {
  const batchSize = options.batchSize ?? 64;
  const rounds = options.rounds ?? 15;
  await initMcl();
  const items: ProofItem[] = set.proofs.map((p) => ({
    proof: snarkjsProofToBytes(p.proof),
    publicInputs: publicSignalsToBytes(p.publicSignals),
  }));
  const batch = Array.from({ length: batchSize }, (_, i) => items[i % items.length] as ProofItem);
  const before = await BeforeVerifier.create(set.vk);
  const after = await Groth16Verifier.create(set.vk);
  const key = prepareKey(parseVerificationKey(set.vk));
  const paths: BreakdownPath[] = [
    {
      name: 'before',
      verifyBatch: (b) => before.verifyBatch(b),
      breakdown: (b, mark) => before.batchBreakdown(b, mark as (step: string) => void),
    },
    {
      name: 'after',
      verifyBatch: (b) => after.verifyBatch(b),
      breakdown: (b, mark) => currentBreakdown(key, b, mark),
    },
  ];
  const samples = paths.map((): PathSamples => ({
    steps: new Map(BREAKDOWN_STEPS.map((s) => [s, []])),
    cpu: [],
    wall: [],
  }));

  const runOnce = (path: BreakdownPath, into: PathSamples | undefined): void => {
    const perStep = new Map<BreakdownStep, number>();
    let last = cpuMicros();
    const ok = path.breakdown(batch, (step) => {
      const now = cpuMicros();
      perStep.set(step, (perStep.get(step) ?? 0) + now - last);
      last = cpuMicros();
    });
    if (!ok) throw new Error(`bench: ${path.name} breakdown rejected a valid batch`);
    const cpu0 = cpuMicros();
    const t0 = performance.now();
    const results = path.verifyBatch(batch);
    const wall = (performance.now() - t0) * 1000;
    const cpu = cpuMicros() - cpu0;
    if (!results.every((r) => r)) throw new Error(`bench: ${path.name} verifyBatch rejected a valid proof`);
    if (into === undefined) return;
    for (const step of BREAKDOWN_STEPS) into.steps.get(step)?.push((perStep.get(step) ?? 0) / batchSize);
    into.cpu.push(cpu / batchSize);
    into.wall.push(wall / batchSize);
  };

  for (let round = -2; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) runOnce(paths[i] as BreakdownPath, round < 0 ? undefined : samples[i]);
  }

  const summarise = (path: BreakdownPath, s: PathSamples): BreakdownPathResult => {
    const steps = Object.fromEntries(
      BREAKDOWN_STEPS.map((step) => [step, median(s.steps.get(step) ?? [])]),
    ) as Record<BreakdownStep, number>;
    const wallPerProof = median(s.wall);
    return {
      name: path.name,
      steps,
      stepSum: BREAKDOWN_STEPS.reduce((acc, step) => acc + steps[step], 0),
      cpuPerProof: median(s.cpu),
      wallPerProof,
      proofsPerSecond: 1e6 / wallPerProof,
      cpuSamples: s.cpu,
    };
  };
  return {
    label: set.label,
    batchSize,
    rounds,
    before: summarise(paths[0] as BreakdownPath, samples[0] as PathSamples),
    after: summarise(paths[1] as BreakdownPath, samples[1] as PathSamples),
  };
}

const fmt = (v: number, digits = 0): string =>
  v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function breakdownMarkdown(r: BreakdownResult): string {
  const { before, after } = r;
  const change = (b: number, a: number): string =>
    b === 0 ? '' : `${a <= b ? '−' : '+'}${fmt(Math.abs(b - a))}`;
  const row = (name: string, b: number, a: number, note = ''): string =>
    `| ${name} | ${fmt(b)} | ${fmt(a)} | ${change(b, a)} | ${note} |`;
  return [
    `Key: ${r.label}; batches of ${r.batchSize} valid proofs on one thread; ${r.rounds} rounds, the two paths alternating.`,
    'µs per proof = CPU time of the step for the whole batch / batch size, median over rounds. "before" is a',
    'frozen copy of the verifier before these changes (bench/groth16-before), "after" the current one, in the',
    'same run.',
    '',
    '| step | before µs/proof | after µs/proof | change | what |',
    '|---|---:|---:|---:|---|',
    ...BREAKDOWN_STEPS.map((s) => row(s, before.steps[s], after.steps[s], STEP_NOTES[s])),
    row('**sum of the steps**', before.stepSum, after.stepSum),
    row('**verifyBatch end to end (CPU)**', before.cpuPerProof, after.cpuPerProof, 'median over rounds'),
    row('**verifyBatch end to end (wall)**', before.wallPerProof, after.wallPerProof, 'median over rounds'),
    `| **proofs/s (wall)** | ${fmt(before.proofsPerSecond)} | ${fmt(after.proofsPerSecond)} | ${fmt(after.proofsPerSecond / before.proofsPerSecond, 2)}x | |`,
    '',
    `End-to-end CPU samples (µs/proof), before: ${before.cpuSamples.map((v) => fmt(v)).join(', ')}; after: ${after.cpuSamples.map((v) => fmt(v)).join(', ')}.`,
  ].join('\n');
}
