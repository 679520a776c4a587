/**
 * Crypto benchmark: `npm run bench -w packages/crypto` (tsx bench/crypto.bench.ts from
 * packages/crypto). Writes docs/benchmarks/crypto.md at the repository root and prints it.
 *
 * Sections:
 *  - Groth16 verification: snarkjs `groth16.verify` against ours (single, batched at 1/4/16/64 on
 *    one thread, and the worker pool on all cores), side by side on the same proofs in one run.
 *    The proofs are real VALID_INPUT v2 proofs made with the committed dev artifacts.
 *  - Groth16 batch breakdown: µs per proof per step of a batch of 64 (bench/groth16-breakdown.ts).
 *    The figures of the verifier before the batch speed-ups stay in docs/benchmarks/crypto.md; its
 *    frozen copy was retired (commit 77ef52783bbc498ed73491cb472898120e64829e holds it).
 *  - Poseidon: ours (BigInt before, WebAssembly now) against circomlibjs and the Rust wasm one,
 *    from bench/poseidon.ts. `npm run bench -w packages/crypto -- poseidon` runs only this section
 *    and replaces only it in the report.
 *  - Merkle tree appends: `benchTreeAppends()` from bench/primitives.ts.
 *  - Proving: the time to make those VALID_INPUT v2 proofs with the Node prover.
 *
 * One Groth16 section alone (printed, docs not written):
 *   npm run bench -w packages/crypto -- --only=groth16-breakdown   (or --only=groth16-verification)
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { benchTreeAppends } from './primitives.js';
import { benchPoseidonComparison, poseidonMarkdown } from './poseidon.js';
import { benchGroth16Breakdown, breakdownMarkdown } from './groth16-breakdown.js';
import { validInputSet, type VerificationBenchSet } from './valid-input-proofs.js';
import { AdaptiveBatcher } from '../src/groth16/adaptive-batcher.js';
import { Groth16Verifier, type ProofItem } from '../src/groth16/mcl-verifier.js';
import { snarkjsProofToBytes } from '../src/groth16/proof-format.js';
import { publicSignalsToBytes } from '../src/groth16/public-inputs.js';
import { loadSnarkjs, terminateSnarkjs, type SnarkjsCurve } from '../src/snarkjs.js';
import { fmt, median } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const REPORT = join(here, '..', '..', '..', 'docs', 'benchmarks', 'crypto.md');

// ---------------------------------------------------------------------------------------------
// Groth16 verification

export interface VerificationBenchOptions {
  /** Repetitions per configuration, interleaved; the median is reported (default 7). */
  reps?: number;
  /** Proofs verified per repetition by snarkjs (default 24) and by ours (default 128). */
  snarkjsProofsPerRep?: number;
  proofsPerRep?: number;
  batchSizes?: number[];
  /** Worker threads for the pool row (default: number of cores) and requests per burst (default 1024). */
  poolSize?: number;
  poolBurst?: number;
}

export interface VerificationRow {
  name: string;
  threads: string;
  /** Wall-clock throughput: median over repetitions of proofs / elapsed seconds. */
  proofsPerSecond: number;
  /** proofs/s of each repetition (wall clock). */
  samples: number[];
  /** proofsPerSecond / snarkjs single-thread proofs/s. */
  ratio: number;
  /**
   * CPU-time throughput: median of proofs / CPU seconds used by this process (all its threads).
   * On a shared machine this is less sensitive to other processes than wall clock.
   */
  proofsPerCpuSecond: number;
  /** proofsPerCpuSecond / the same figure for snarkjs single-thread. */
  cpuRatio: number;
}

export interface VerificationBenchResult {
  label: string;
  nPublic: number;
  distinctProofs: number;
  rows: VerificationRow[];
}

function expectAllValid(results: readonly boolean[], what: string): void {
  if (!results.every((r) => r))
    throw new Error(`benchmark sanity check failed: ${what} rejected a valid proof`);
}

/**
 * Verification throughput of snarkjs and of this package on the same proofs, in one run. The
 * proofs are cycled to fill each repetition and batch.
 */
export async function benchVerification(
  set: VerificationBenchSet,
  options: VerificationBenchOptions = {},
): Promise<VerificationBenchResult> {
  const reps = options.reps ?? 7;
  const snarkjsPerRep = options.snarkjsProofsPerRep ?? 24;
  const perRep = options.proofsPerRep ?? 128;
  const batchSizes = options.batchSizes ?? [1, 4, 16, 64];
  const poolSize = options.poolSize ?? availableParallelism();
  const poolBurst = options.poolBurst ?? 1024;
  if (set.proofs.length === 0) throw new Error('no proofs to benchmark');

  const items: ProofItem[] = set.proofs.map((p) => ({
    proof: snarkjsProofToBytes(p.proof),
    publicInputs: publicSignalsToBytes(p.publicSignals),
  }));
  const itemAt = (i: number): ProofItem => items[i % items.length] as ProofItem;
  const snarkAt = (i: number): VerificationBenchSet['proofs'][number] =>
    set.proofs[i % set.proofs.length] as VerificationBenchSet['proofs'][number];
  interface Runner {
    name: string;
    threads: string;
    proofs: number;
    run(): Promise<void> | void;
    samples: number[];
    cpuSamples: number[];
  }
  const runners: Runner[] = [];

  // snarkjs: two curves, swapped into ffjavascript's curve cache (which groth16.verify uses):
  // a single-threaded one, and the default one whose worker threads take the MSM.
  const snarkjs = await loadSnarkjs();
  const cache = globalThis as { curve_bn128?: SnarkjsCurve | null };
  const singleCurve = await snarkjs.curves.getCurveFromName('bn128', { singleThread: true });
  const defaultCurve = await snarkjs.curves.getCurveFromName('bn128');
  const snarkjsRunner = (curve: SnarkjsCurve) => async (): Promise<void> => {
    cache.curve_bn128 = curve;
    const ok: boolean[] = [];
    for (let i = 0; i < snarkjsPerRep; i++) {
      const p = snarkAt(i);
      ok.push(await snarkjs.groth16.verify(set.vk, p.publicSignals, p.proof));
    }
    expectAllValid(ok, 'snarkjs');
  };
  runners.push({
    name: 'snarkjs groth16.verify',
    threads: '1',
    proofs: snarkjsPerRep,
    run: snarkjsRunner(singleCurve),
    samples: [],
    cpuSamples: [],
  });
  runners.push({
    name: 'snarkjs groth16.verify, default curve (MSM on its worker threads)',
    threads: `1 + ${availableParallelism()} helpers`,
    proofs: snarkjsPerRep,
    run: snarkjsRunner(defaultCurve),
    samples: [],
    cpuSamples: [],
  });

  // Ours, one thread.
  const verifier = await Groth16Verifier.create(set.vk);
  runners.push({
    name: 'ours, single verify',
    threads: '1',
    proofs: perRep,
    run: () => {
      const ok: boolean[] = [];
      for (let i = 0; i < perRep; i++) ok.push(verifier.verify(itemAt(i).proof, itemAt(i).publicInputs));
      expectAllValid(ok, 'single verify');
    },
    samples: [],
    cpuSamples: [],
  });
  const batchRunner = (name: string, n: number): Runner => {
    const batches = Math.max(1, Math.round(perRep / n));
    return {
      name,
      threads: '1',
      proofs: batches * n,
      run: () => {
        for (let b = 0; b < batches; b++) {
          const batch = Array.from({ length: n }, (_, i) => itemAt(b * n + i));
          expectAllValid(verifier.verifyBatch(batch), name);
        }
      },
      samples: [],
      cpuSamples: [],
    };
  };
  for (const n of batchSizes) runners.push(batchRunner(`ours, batch of ${n}`, n));

  // Ours through the worker pool and the adaptive batcher, all cores.
  const batcher = await AdaptiveBatcher.create({ keys: { bench: set.vk }, size: poolSize, maxBatchSize: 64 });
  runners.push({
    name: `ours, worker pool + adaptive batcher (burst of ${poolBurst}, batches ≤ 64)`,
    threads: `${poolSize} workers`,
    proofs: poolBurst,
    run: async () => {
      const results = await Promise.all(
        Array.from({ length: poolBurst }, (_, i) => batcher.verify(itemAt(i).proof, itemAt(i).publicInputs)),
      );
      expectAllValid(results, 'worker pool');
    },
    samples: [],
    cpuSamples: [],
  });

  try {
    for (const r of runners) await r.run(); // warm-up
    // Repetitions are interleaved (every configuration once per round) so that load from other
    // processes on a shared machine hits all rows alike.
    for (let rep = 0; rep < reps; rep++) {
      for (const r of runners) {
        const cpu = process.cpuUsage();
        const t = performance.now();
        await r.run();
        const wallMs = performance.now() - t;
        const used = process.cpuUsage(cpu);
        r.samples.push((r.proofs * 1000) / wallMs);
        r.cpuSamples.push((r.proofs * 1e6) / (used.user + used.system));
      }
    }
  } finally {
    await batcher.close();
    cache.curve_bn128 = null;
    await singleCurve.terminate();
    await defaultCurve.terminate();
    await terminateSnarkjs();
  }

  const base = median((runners[0] as Runner).samples);
  const cpuBase = median((runners[0] as Runner).cpuSamples);
  return {
    label: set.label,
    nPublic: verifier.nPublic,
    distinctProofs: set.proofs.length,
    rows: runners.map((r) => {
      const proofsPerSecond = median(r.samples);
      const proofsPerCpuSecond = median(r.cpuSamples);
      return {
        name: r.name,
        threads: r.threads,
        proofsPerSecond,
        samples: r.samples,
        ratio: proofsPerSecond / base,
        proofsPerCpuSecond,
        cpuRatio: proofsPerCpuSecond / cpuBase,
      };
    }),
  };
}

export function verificationMarkdown(result: VerificationBenchResult): string {
  const defaultRate = result.rows[1]?.proofsPerSecond ?? Number.NaN;
  const lines = [
    `Key: ${result.label}, ${result.nPublic} public inputs; ${result.distinctProofs} distinct valid proofs, cycled; every result checked true.`,
    '',
    '- proofs/s: wall clock, median over repetitions. Repetitions are interleaved across rows (one of',
    '  each per round), so load from other processes on this shared machine hits all rows alike.',
    '- per CPU-s: proofs per CPU second used by the whole process (all threads), median. Less sensitive',
    '  to other load; for the worker pool it is efficiency, not throughput.',
    '- "vs snarkjs" and "(CPU)" are against snarkjs `groth16.verify` on one thread (the first row);',
    '  "vs default" is against snarkjs `groth16.verify` as it runs out of the box (second row). All',
    '  measured in the same run.',
    '',
    '| verifier | threads | proofs/s | vs snarkjs | vs default | per CPU-s | vs snarkjs (CPU) | samples (proofs/s) |',
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...result.rows.map(
      (r) =>
        `| ${r.name} | ${r.threads} | ${fmt(r.proofsPerSecond)} | ${fmt(r.ratio, 1)}x | ${fmt(r.proofsPerSecond / defaultRate, 1)}x | ${fmt(r.proofsPerCpuSecond)} | ${fmt(r.cpuRatio, 1)}x | ${r.samples.map((v) => fmt(v)).join(', ')} |`,
    ),
  ];
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Poseidon and tree appends

function resultMarkdown(value: object): string {
  const rows = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'string')
    .map(([k, v]) => `| ${k} | ${typeof v === 'number' ? fmt(v, Number.isInteger(v) ? 0 : 2) : String(v)} |`);
  return ['| metric | value |', '|---|---:|', ...rows].join('\n');
}

async function primitivesSections(): Promise<string> {
  return [
    poseidonMarkdown(await benchPoseidonComparison()),
    `## Merkle tree appends (depth 20, 100,000 leaves)\n\n${resultMarkdown(await benchTreeAppends())}`,
  ].join('\n\n');
}

/**
 * Runs only the Poseidon section and swaps it into the existing report (from its heading to the
 * next `## `), leaving every other section as it was.
 */
async function poseidonOnly(): Promise<void> {
  const loadBefore = loadavg();
  const section = poseidonMarkdown(await benchPoseidonComparison());
  const note = `\n\nRun alone on ${new Date().toISOString()}, Node ${process.version}, load average (1 min) ${loadBefore[0]?.toFixed(2)} / ${loadavg()[0]?.toFixed(2)} before/after.`;
  const previous = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '# Crypto benchmarks\n';
  const start = previous.search(/^## Poseidon/m);
  let next: string;
  if (start < 0) next = `${previous.trimEnd()}\n\n${section}${note}\n`;
  else {
    const after = previous.slice(start + 1).search(/^## /m);
    const end = after < 0 ? previous.length : start + 1 + after;
    next = `${previous.slice(0, start)}${section}${note}\n${after < 0 ? '' : '\n'}${previous.slice(end)}`;
  }
  writeFileSync(REPORT, next);
  console.log(section + note);
  console.log(`Poseidon section written to ${REPORT}`);
}

// ---------------------------------------------------------------------------------------------
// Proving time of the VALID_INPUT v2 proofs (made by bench/valid-input-proofs.ts)

function provingSection(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const med = sorted[Math.floor(sorted.length / 2)]!;
  return [
    '## Proving VALID_INPUT v2 in Node',
    '',
    'snarkjs `groth16.fullProve` in a worker thread (`NoteProver` from `@nightjar/circuits`), witness included; the first proof warms the worker.',
    '',
    `| proofs | median ms | min ms | max ms | target |`,
    '|---:|---:|---:|---:|---|',
    `| ${samples.length} | ${fmt(med, 0)} | ${fmt(sorted[0]!, 0)} | ${fmt(sorted.at(-1)!, 0)} | under 1,500 ms: ${med < 1500 ? 'met' : 'missed'} |`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------

/** Machine, Node, date and load lines of a report. */
function runHeader(started: Date, loadBefore: number[], loadAfter: number[], command: string): string[] {
  const cpuList = cpus();
  return [
    `- Machine: ${cpuList[0]?.model ?? 'unknown CPU'} × ${cpuList.length} (available parallelism ${availableParallelism()})`,
    `- Node ${process.version}, ${process.platform}/${process.arch}`,
    `- Date: ${started.toISOString()}`,
    `- Load average (1 min) before/after: ${loadBefore[0]?.toFixed(2)} / ${loadAfter[0]?.toFixed(2)} (the machine is shared; other load lowers every figure)`,
    `- Command: \`${command}\``,
  ];
}

/**
 * Sections that run on their own (`-- --only=<name>`): printed, not written into the report (a
 * partial run must not replace the other sections).
 */
const SECTIONS: Record<string, (set: VerificationBenchSet) => Promise<string>> = {
  'groth16-verification': async (set) =>
    `## Groth16 verification\n\n${verificationMarkdown(await benchVerification(set))}`,
  'groth16-breakdown': async (set) =>
    `## Groth16 batch breakdown\n\n${breakdownMarkdown(await benchGroth16Breakdown(set))}`,
};

async function runSection(name: string): Promise<void> {
  const section = SECTIONS[name];
  if (section === undefined)
    throw new Error(`unknown section ${name}; one of ${Object.keys(SECTIONS).join(', ')}`);
  const loadBefore = loadavg();
  const started = new Date();
  const real = await validInputSet(12);
  const body = await section(real.set);
  const header = runHeader(
    started,
    loadBefore,
    loadavg(),
    `npm run bench -w packages/crypto -- --only=${name}`,
  );
  console.log([...header, '', body, ''].join('\n'));
}

async function main(): Promise<void> {
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  if (only !== undefined) return runSection(only);
  const loadBefore = loadavg();
  const started = new Date();
  const real = await validInputSet(12);
  const verification = await benchVerification(real.set);
  const breakdown = await benchGroth16Breakdown(real.set);
  const primitives = await primitivesSections();
  const proving = provingSection(real.provingMs);
  const loadAfter = loadavg();

  const md = [
    '# Crypto benchmarks',
    '',
    ...runHeader(started, loadBefore, loadAfter, 'npm run bench -w packages/crypto'),
    '',
    '## Groth16 verification',
    '',
    verificationMarkdown(verification),
    '',
    '## Groth16 batch breakdown',
    '',
    breakdownMarkdown(breakdown),
    '',
    primitives,
    '',
    proving,
    '',
  ].join('\n');

  mkdirSync(dirname(REPORT), { recursive: true });
  writeFileSync(REPORT, md);
  console.log(md);
  console.log(`written to ${REPORT}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === 'poseidon') await poseidonOnly();
  else await main();
}
