/**
 * Groth16 proving time, snarkjs vs the native addon (1 and 2 threads), side by side in one run.
 * Rounds alternate the three provers so load drift hits all of them alike. Per prover: median
 * wall time and median CPU time of the whole process (snarkjs' helper threads included).
 *
 *   npx tsx packages/circuits/bench/native-prover.bench.ts [runs] [--zkey path.zkey ...]
 *
 * VALID_INPUT v2 uses a real witness. Each extra --zkey (e.g. valid_match_v2.zkey) is proved with a
 * synthetic witness (wire 0 = 1, the rest random field elements): neither prover checks the
 * constraints, the work is the same as for a real witness (slightly more: no zero or bit wires),
 * but the proof does not verify.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { MerkleTree, deriveNote, loadSnarkjs, ownerCommitment, terminateSnarkjs } from '@nightjar/crypto';
import { FIELD_MODULUS } from '@nightjar/protocol';

import { CIRCUITS, loadArtifact } from '../src/artifacts.js';
import { NativeGroth16Key, nativeProve, witnessFromWtns } from '../src/native-prover.js';
import { validInputV2Witness } from '../src/lock-witness.js';
import { INPUT_NOTE as NOTE, INPUT_ORDER as ORDER } from './proving-fixtures.js';

const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
const extraZkeys = args.flatMap((a, i) => (a === '--zkey' && args[i + 1] ? [args[i + 1] as string] : []));

const snarkjs = (await loadSnarkjs()) as unknown as {
  wtns: {
    calculate(input: unknown, wasm: Uint8Array, out: { type: 'mem'; data?: Uint8Array }): Promise<void>;
  };
  groth16: { prove(zkey: Uint8Array, wtns: Uint8Array): Promise<unknown> };
};

interface Case {
  name: string;
  zkey: Uint8Array;
  wtns: Uint8Array;
}

async function validInputCase(): Promise<Case> {
  const tree = new MerkleTree();
  tree.append(7n);
  const c = deriveNote({ ...NOTE, ownerCommitment: ownerCommitment(NOTE.spendingKey) }).noteCommitment;
  const w = validInputV2Witness({ ...NOTE, path: tree.proof(tree.append(c)), order: ORDER });
  const out: { type: 'mem'; data?: Uint8Array } = { type: 'mem' };
  await snarkjs.wtns.calculate(w.input, await loadArtifact(CIRCUITS.valid_input_v2.wasm), out);
  return {
    name: 'valid_input_v2',
    zkey: await loadArtifact(CIRCUITS.valid_input_v2.zkey),
    wtns: out.data as Uint8Array,
  };
}

/** A .wtns file (version 2) holding wire 0 = 1 and random field elements. */
function syntheticWtns(nVars: number): Uint8Array {
  const buf = new Uint8Array(12 + 12 + 40 + 12 + nVars * 32);
  const view = new DataView(buf.buffer);
  buf.set([0x77, 0x74, 0x6e, 0x73]); // 'wtns'
  view.setUint32(4, 2, true);
  view.setUint32(8, 2, true);
  view.setUint32(12, 1, true);
  view.setBigUint64(16, 40n, true);
  view.setUint32(24, 32, true);
  let r = FIELD_MODULUS;
  for (let i = 0; i < 32; i++, r >>= 8n) buf[28 + i] = Number(r & 0xffn);
  view.setUint32(60, nVars, true);
  view.setUint32(64, 2, true);
  view.setBigUint64(68, BigInt(nVars * 32), true);
  for (let i = 0; i < nVars; i++) {
    let v = i === 0 ? 1n : BigInt('0x' + randomBytes(32).toString('hex')) % FIELD_MODULUS;
    for (let b = 0; b < 32; b++, v >>= 8n) buf[76 + i * 32 + b] = Number(v & 0xffn);
  }
  return buf;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] as number;
}

async function timed(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

const cases: Case[] = [await validInputCase()];
for (const path of extraZkeys) {
  const zkey = new Uint8Array(readFileSync(path));
  const key = NativeGroth16Key.load(zkey);
  cases.push({ name: `${path.split('/').pop()} (synthetic witness)`, zkey, wtns: syntheticWtns(key.nVars) });
}

const rows: string[] = [];
for (const c of cases) {
  const t0 = performance.now();
  const key = NativeGroth16Key.load(c.zkey);
  const loadMs = performance.now() - t0;
  const wit = witnessFromWtns(c.wtns);
  const provers: [string, () => Promise<unknown>][] = [
    ['snarkjs groth16.prove (all cores)', () => snarkjs.groth16.prove(c.zkey, c.wtns)],
    ['native, 1 thread', () => nativeProve(key, wit, { threads: 1 })],
    ['native, 2 threads', () => nativeProve(key, wit, { threads: 2 })],
  ];
  for (const [, fn] of provers) await fn(); // warm-up (snarkjs curve threads, page faults)
  const samples = provers.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let r = 0; r < runs; r++) {
    for (const [i, [, fn]] of provers.entries()) {
      const t = await timed(fn);
      samples[i]?.wall.push(t.wall);
      samples[i]?.cpu.push(t.cpu);
    }
  }
  const base = median(samples[0]?.wall ?? []);
  for (const [i, [label]] of provers.entries()) {
    const s = samples[i] as { wall: number[]; cpu: number[] };
    const wall = median(s.wall);
    rows.push(
      `| ${c.name} (n=${key.nVars}, domain ${key.domainSize}) | ${label} | ${wall.toFixed(0)} | ${median(s.cpu).toFixed(0)} | ${(1000 / wall).toFixed(2)} | ${(base / wall).toFixed(2)}x |`,
    );
  }
  rows.push(`| ${c.name} | native key load (once) | ${loadMs.toFixed(0)} | | | |`);
}
console.log(`\n${runs} rounds, median per prover\n`);
console.log('| circuit | prover | wall ms | CPU ms | proofs/s | vs snarkjs |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
await terminateSnarkjs();
