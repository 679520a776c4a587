/**
 * Settlement proving throughput (issue 29 item 5): VALID_MATCH v2 and VALID_LOCK through the real
 * prover (NoteProver: worker threads, hash-checked artifacts, public signals
 * cross-checked), under each prover configuration, side by side in one run:
 *
 *   npx tsx packages/circuits/bench/match-proving.ts [rounds] [--per-lane K] [--in-flight 1,2]
 *     [--configs snarkjs-1x,snarkjs-2x1,native-1x,native-2x1] [--circuits valid_match_v2,valid_lock]
 *     [--json out.json]
 *
 * Configurations: snarkjs with one worker on all cores (the pool's historic default), snarkjs with
 * two single-threaded workers, and, when the addon is built, the native prover with one worker on
 * all cores (what NoteProver picks by default on such a machine) and with two single-threaded
 * workers. Each is driven by a closed loop with N proofs in flight (closed-loop.ts): proofs per
 * second = completed proofs over the wall time from the first submission to the last result.
 *
 * Every prover is started and warmed up (each circuit proved once) before measuring; then each
 * round measures every (circuit, N, configuration) cell, K·N proofs each, rotating the order of the
 * configurations from round to round so load drift on a shared machine hits all of them alike.
 * Reported: per cell the median over rounds of proofs/s, the median latency over all proofs, and
 * the process CPU time per proof (worker and helper threads included).
 *
 * VALID_MATCH v1 is gone (settlement v2 replaced it); its figures, measured by this bench before
 * the removal, stay in docs/benchmarks/settlement.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';

import { nativeProverAvailable } from '../src/native-prover.js';
import { NoteProver, type ProverOptions } from '../src/prover.js';
import { closedLoop, median } from './closed-loop.js';
import { validLockParams, validMatchV2Params } from './proving-fixtures.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')) ?? 3);
const perLane = Number(flag('--per-lane') ?? 3);
const inFlights = (flag('--in-flight') ?? '1,2').split(',').map(Number);
const jsonOut = flag('--json');
const onlyConfigs = flag('--configs')?.split(',');
const onlyCircuits = flag('--circuits')?.split(',');

interface Config {
  id: string;
  label: string;
  options: ProverOptions;
}

const native = nativeProverAvailable();
const allConfigs: Config[] = [
  { id: 'snarkjs-1x', label: 'snarkjs, 1 worker on all cores', options: { backend: 'snarkjs', workers: 1 } },
  {
    id: 'snarkjs-2x1',
    label: 'snarkjs, 2 workers single-threaded',
    options: { backend: 'snarkjs', workers: 2, singleThread: true },
  },
  ...(native
    ? [
        {
          id: 'native-1x',
          label: 'native, 1 worker on all cores (default here)',
          options: { backend: 'native', workers: 1 },
        } satisfies Config,
        {
          id: 'native-2x1',
          label: 'native, 2 workers single-threaded',
          options: { backend: 'native', workers: 2, singleThread: true },
        } satisfies Config,
      ]
    : []),
];
const configs = allConfigs.filter((c) => !onlyConfigs || onlyConfigs.includes(c.id));

const v2 = validMatchV2Params();
const lock = validLockParams();
const allCircuits = [
  { id: 'valid_match_v2', label: 'VALID_MATCH v2', prove: (p: NoteProver) => p.proveValidMatchV2(v2) },
  { id: 'valid_lock', label: 'VALID_LOCK', prove: (p: NoteProver) => p.proveValidLock(lock) },
] as const;
const circuits = allCircuits.filter((c) => !onlyCircuits || onlyCircuits.includes(c.id));
if (configs.length === 0 || circuits.length === 0) throw new Error('nothing to measure');

interface Manifest {
  circuits: Record<string, { constraints: number; wires: number; public_inputs: string[] }>;
}
const manifest = JSON.parse(
  readFileSync(new URL('../artifacts/manifest.json', import.meta.url), 'utf8'),
) as Manifest;

const startedAt = new Date().toISOString();
const load: number[][] = [loadavg()];
console.error(`${startedAt}: ${configs.length} configurations, ${rounds} rounds, ${perLane} proofs per lane`);

const provers = new Map<string, NoteProver>();
for (const c of configs) {
  const p = new NoteProver({ ...c.options, maxQueue: 64 });
  await p.start();
  if (p.backend !== c.options.backend) throw new Error(`${c.id}: workers report ${p.backend}`);
  const cold: string[] = [];
  for (const circuit of circuits) {
    const t = performance.now();
    // One proof per worker, so every worker has every circuit's artifacts before measuring.
    await Promise.all(Array.from({ length: c.options.workers ?? 1 }, () => circuit.prove(p)));
    cold.push(`${circuit.id} ${(performance.now() - t).toFixed(0)} ms`);
  }
  console.error(`warm-up ${c.id}: ${cold.join(', ')}`);
  provers.set(c.id, p);
}

type CellKey = `${string}|${number}|${string}`;
const cells = new Map<CellKey, { perSecond: number[]; latencyMs: number[]; cpuMsPerProof: number[] }>();
for (let r = 0; r < rounds; r++) {
  for (const circuit of circuits) {
    for (const n of inFlights) {
      // Rotate which configuration goes first.
      const order = configs.map((_, i) => configs[(i + r) % configs.length] as Config);
      for (const c of order) {
        const p = provers.get(c.id) as NoteProver;
        const cpu0 = process.cpuUsage();
        const res = await closedLoop(() => circuit.prove(p), { inFlight: n, total: perLane * n });
        const cpu = process.cpuUsage(cpu0);
        const key: CellKey = `${circuit.id}|${n}|${c.id}`;
        const cell = cells.get(key) ?? { perSecond: [], latencyMs: [], cpuMsPerProof: [] };
        cell.perSecond.push(res.perSecond);
        cell.latencyMs.push(...res.latenciesMs);
        cell.cpuMsPerProof.push((cpu.user + cpu.system) / 1000 / res.completed);
        cells.set(key, cell);
        console.error(
          `round ${r + 1} ${circuit.id} N=${n} ${c.id}: ${res.perSecond.toFixed(2)}/s, p50 ${median(res.latenciesMs).toFixed(0)} ms`,
        );
      }
    }
  }
  load.push(loadavg());
}
await Promise.all([...provers.values()].map((p) => p.close()));

interface Row {
  circuit: string;
  config: string;
  inFlight: number;
  perSecond: number;
  latencyP50Ms: number;
  cpuMsPerProof: number;
}
const rows: Row[] = [];
for (const circuit of circuits)
  for (const n of inFlights)
    for (const c of configs) {
      const cell = cells.get(`${circuit.id}|${n}|${c.id}`);
      if (!cell) continue;
      rows.push({
        circuit: circuit.id,
        config: c.id,
        inFlight: n,
        perSecond: median(cell.perSecond),
        latencyP50Ms: median(cell.latencyMs),
        cpuMsPerProof: median(cell.cpuMsPerProof),
      });
    }

const domain = (name: string) => {
  const m = manifest.circuits[name];
  return m ? 2 ** Math.ceil(Math.log2(m.constraints + m.public_inputs.length + 1)) : NaN;
};
const fmt = (x: number, d = 0) =>
  x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

const out: string[] = [];
out.push(
  `Run ${startedAt}, ${availableParallelism()} × ${cpus()[0]?.model ?? 'cpu'} (shared), Node ${process.version}; ` +
    `1-minute load average ${load.map((l) => (l[0] as number).toFixed(2)).join(' → ')} (start, after each round). ` +
    `${rounds} rounds × ${perLane} proofs per lane per cell; medians.`,
);
out.push('');
out.push('| circuit | constraints | wires | domain |');
out.push('|---|---:|---:|---:|');
for (const circuit of circuits) {
  const m = manifest.circuits[circuit.id];
  if (m)
    out.push(
      `| ${circuit.label} | ${fmt(m.constraints)} | ${fmt(m.wires)} | 2^${Math.log2(domain(circuit.id))} |`,
    );
}
out.push('');
out.push('| circuit | configuration | in flight | proofs/s | latency p50 ms | CPU ms/proof |');
out.push('|---|---|---:|---:|---:|---:|');
for (const x of rows) {
  const label = configs.find((c) => c.id === x.config)?.label ?? x.config;
  const name = circuits.find((c) => c.id === x.circuit)?.label ?? x.circuit;
  out.push(
    `| ${name} | ${label} | ${x.inFlight} | ${x.perSecond.toFixed(2)} | ${fmt(x.latencyP50Ms)} | ${fmt(x.cpuMsPerProof)} |`,
  );
}
const fastest = (circuit: string): Row | undefined =>
  rows
    .filter((x) => x.circuit === circuit)
    .reduce<Row | undefined>((a, b) => (a && a.perSecond >= b.perSecond ? a : b), undefined);
for (const circuit of circuits) {
  const best = fastest(circuit.id);
  const label = configs.find((c) => c.id === best?.config)?.label ?? best?.config;
  if (best) {
    out.push('');
    out.push(
      `Most ${circuit.label} proofs/s: ${label}, ${best.inFlight} in flight: ${best.perSecond.toFixed(2)}/s.`,
    );
  }
}
console.log(out.join('\n'));
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ startedAt, rounds, perLane, load, rows }, null, 2));
