/**
 * Groth16 batch breakdown: where a proof's time goes when VALID_INPUT v2 proofs are verified in
 * batches of 64 on one thread, step by step.
 *
 * The valid-batch steps run in order with a clock read between steps, composed below from the
 * same src functions `verifyBatch` uses; the end-to-end `verifyBatch` is timed in the same rounds.
 * Figures are CPU time of this process per proof (less sensitive to the other load on a shared
 * machine than wall time), median over rounds.
 *
 * The figures of the verifier before the batch speed-ups stay in docs/benchmarks/crypto.md; its
 * frozen copy (bench/groth16-before) was retired, and lives on at commit
 * 77ef52783bbc498ed73491cb472898120e64829e.
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
  snarkjsProofToBytes,
} from '../src/groth16/proof-format.js';
import { publicSignalsToBytes } from '../src/groth16/public-inputs.js';
import { parseVerificationKey } from '../src/groth16/verification-key.js';
import { curveStatus, decodeProofPoints, type ProofPoints } from '../src/groth16/proof-points.js';
import type { VerificationBenchSet } from './valid-input-proofs.js';
import { fmt, median } from './stats.js';

/** The steps, in pipeline order. */
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

/** The batch path, step by step: the calls `Groth16Verifier.verifyBatch` makes. */
function batchBreakdown(key: PreparedKey, items: readonly ProofItem[], mark: Mark): boolean {
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

export interface BreakdownResult {
  label: string;
  batchSize: number;
  rounds: number;
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
  const verifier = await Groth16Verifier.create(set.vk);
  const key = prepareKey(parseVerificationKey(set.vk));
  const stepSamples = new Map<BreakdownStep, number[]>(BREAKDOWN_STEPS.map((s) => [s, []]));
  const cpuSamples: number[] = [];
  const wallSamples: number[] = [];

  const runOnce = (measured: boolean): void => {
    const perStep = new Map<BreakdownStep, number>();
    let last = cpuMicros();
    const ok = batchBreakdown(key, batch, (step) => {
      const now = cpuMicros();
      perStep.set(step, (perStep.get(step) ?? 0) + now - last);
      last = cpuMicros();
    });
    if (!ok) throw new Error('bench: the breakdown rejected a valid batch');
    const cpu0 = cpuMicros();
    const t0 = performance.now();
    const results = verifier.verifyBatch(batch);
    const wall = (performance.now() - t0) * 1000;
    const cpu = cpuMicros() - cpu0;
    if (!results.every((r) => r)) throw new Error('bench: verifyBatch rejected a valid proof');
    if (!measured) return;
    for (const step of BREAKDOWN_STEPS) stepSamples.get(step)?.push((perStep.get(step) ?? 0) / batchSize);
    cpuSamples.push(cpu / batchSize);
    wallSamples.push(wall / batchSize);
  };

  for (let round = -2; round < rounds; round++) runOnce(round >= 0);

  const steps = Object.fromEntries(
    BREAKDOWN_STEPS.map((step) => [step, median(stepSamples.get(step) ?? [])]),
  ) as Record<BreakdownStep, number>;
  const wallPerProof = median(wallSamples);
  return {
    label: set.label,
    batchSize,
    rounds,
    steps,
    stepSum: BREAKDOWN_STEPS.reduce((acc, step) => acc + steps[step], 0),
    cpuPerProof: median(cpuSamples),
    wallPerProof,
    proofsPerSecond: 1e6 / wallPerProof,
    cpuSamples,
  };
}

export function breakdownMarkdown(r: BreakdownResult): string {
  const row = (name: string, v: number, note = ''): string => `| ${name} | ${fmt(v)} | ${note} |`;
  return [
    `Key: ${r.label}; batches of ${r.batchSize} valid proofs on one thread; ${r.rounds} rounds.`,
    'µs per proof = CPU time of the step for the whole batch / batch size, median over rounds.',
    '',
    '| step | µs/proof | what |',
    '|---|---:|---|',
    ...BREAKDOWN_STEPS.map((s) => row(s, r.steps[s], STEP_NOTES[s])),
    row('**sum of the steps**', r.stepSum),
    row('**verifyBatch end to end (CPU)**', r.cpuPerProof, 'median over rounds'),
    row('**verifyBatch end to end (wall)**', r.wallPerProof, 'median over rounds'),
    `| **proofs/s (wall)** | ${fmt(r.proofsPerSecond)} | |`,
    '',
    `End-to-end CPU samples (µs/proof): ${r.cpuSamples.map((v) => fmt(v)).join(', ')}.`,
  ].join('\n');
}
