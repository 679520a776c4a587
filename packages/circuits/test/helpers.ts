/**
 * Test helpers: witness calculation with the committed wasm, an R1CS check of (possibly tampered)
 * witnesses against the committed r1cs, and matching circom's assert messages to source lines.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { CIRCUITS, loadArtifact, type CircuitName } from '../src/artifacts.js';
import { loadSnarkjs, terminateSnarkjs } from '@nightjar/crypto';
import { FIELD_MODULUS as R } from '@nightjar/protocol';

export const snarkjs = await loadSnarkjs();

const bytesCache = new Map<string, Promise<Uint8Array>>();
function artifact(file: string): Promise<Uint8Array> {
  let p = bytesCache.get(file);
  if (!p) {
    p = loadArtifact(file);
    bytesCache.set(file, p);
  }
  return p;
}

/** Runs a witness calculator; throws (with circom's assert message) on a rejected input. */
export async function witnessFromWasm(wasm: Uint8Array, input: Record<string, unknown>): Promise<Uint8Array> {
  const out: { type: 'mem'; data?: Uint8Array } = { type: 'mem' };
  // circom's runtime prints each failed assert with console.error before throwing the same text;
  // keep the test output readable by dropping that duplicate line.
  const original = console.error;
  console.error = (...args: unknown[]) => {
    if (args[0] !== 'ERROR: ') original(...args);
  };
  try {
    await snarkjs.wtns.calculate(input, wasm, out);
  } finally {
    console.error = original;
  }
  if (!out.data) throw new Error('witness calculator produced no data');
  return out.data;
}

/** Checks a .wtns buffer against an r1cs (every constraint). */
export function r1csHolds(r1cs: Uint8Array, wtns: Uint8Array): Promise<boolean> {
  // snarkjs reports an unsatisfied constraint through the logger (and crashes without one).
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  return snarkjs.wtns.check(r1cs, { type: 'mem', data: wtns }, quiet);
}

/** Runs the committed witness calculator; throws (with circom's assert message) on a rejected input. */
export async function calculateWitness(
  circuit: CircuitName,
  input: Record<string, unknown>,
): Promise<Uint8Array> {
  return witnessFromWasm(await artifact(CIRCUITS[circuit].wasm), input);
}

/** Checks a .wtns buffer against the committed r1cs (every constraint). */
export async function r1csSatisfied(circuit: CircuitName, wtns: Uint8Array): Promise<boolean> {
  return r1csHolds(await artifact(CIRCUITS[circuit].r1cs), wtns);
}

/** Byte offset of the witness values (section 2) inside a .wtns file, and the element size. */
function witnessSection(wtns: Uint8Array): { offset: number; n8: number; count: number } {
  const view = new DataView(wtns.buffer, wtns.byteOffset, wtns.byteLength);
  const magic = new TextDecoder().decode(wtns.subarray(0, 4));
  if (magic !== 'wtns') throw new Error('not a wtns file');
  const nSections = view.getUint32(8, true);
  let pos = 12;
  let n8 = 0;
  let count = 0;
  for (let s = 0; s < nSections; s++) {
    const type = view.getUint32(pos, true);
    const size = Number(view.getBigUint64(pos + 4, true));
    const body = pos + 12;
    if (type === 1) {
      n8 = view.getUint32(body, true);
      count = view.getUint32(body + 4 + n8, true);
    } else if (type === 2) {
      return { offset: body, n8, count };
    }
    pos = body + size;
  }
  throw new Error('wtns file has no witness section');
}

/** Reads wire `index` of a witness. */
export function getWire(wtns: Uint8Array, index: number): bigint {
  const { offset, n8 } = witnessSection(wtns);
  let v = 0n;
  for (let i = n8 - 1; i >= 0; i--) v = (v << 8n) | BigInt(wtns[offset + index * n8 + i] as number);
  return v;
}

/** Returns a copy of the witness with wire `index` set to `value` (little-endian, as stored). */
export function setWire(wtns: Uint8Array, index: number, value: bigint): Uint8Array {
  const copy = new Uint8Array(wtns);
  const { offset, n8, count } = witnessSection(copy);
  if (index <= 0 || index >= count) throw new Error(`wire ${index} out of range`);
  let v = ((value % R) + R) % R;
  for (let i = 0; i < n8; i++) {
    copy[offset + index * n8 + i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return copy;
}

/** Wire index of a public input (wire 0 is the constant 1; public inputs follow in circuit order). */
export function publicWire(circuit: CircuitName, name: string): number {
  const i = CIRCUITS[circuit].publicInputs.indexOf(name);
  if (i < 0) throw new Error(`${name} is not a public input of ${circuit}`);
  return i + 1;
}

/** Releases the BN254 curve threads snarkjs keeps alive in this thread. */
export const terminateCurve = terminateSnarkjs;

const sourceCache = new Map<string, string[]>();

/**
 * Pattern matching circom's assert trace for a statement of a circuit source: the template name
 * (instances are suffixed _N) and the 1-based line where `statement` occurs in circuits/<file>.
 */
export function assertAt(template: string, file: string, statement: string): RegExp {
  let lines = sourceCache.get(file);
  if (!lines) {
    lines = readFileSync(new URL(`../circuits/${file}`, import.meta.url), 'utf8').split('\n');
    sourceCache.set(file, lines);
  }
  // Search from the template's own declaration: one statement may appear in several templates.
  const start = lines.findIndex((l) => new RegExp(`^\\s*template\\s+${template}\\s*\\(`).test(l));
  if (start < 0) throw new Error(`template ${template} not found in ${file}`);
  const idx = lines.findIndex((l, i) => i > start && l.includes(statement));
  if (idx < 0) throw new Error(`statement not found in ${file} after template ${template}: ${statement}`);
  return new RegExp(`Assert Failed[\\s\\S]*template ${template}_\\d+ line: ${idx + 1}\\b`);
}

/** The asserts of the NoteOwnership template (note.circom) that both circuits share. */
export const noteOwnershipLines = () => ({
  root: assertAt('NoteOwnership', 'note.circom', 'tree.root === merkle_root'),
  nonZero: assertAt('NoteOwnership', 'note.circom', 'amountIsZero.out === 0'),
});

/** Line (1-based) of circomlib's Num2Bits sum check, for range-check failures. */
export function num2BitsAssert(
  parentTemplate: string,
  parentStatement: string,
  file = 'note.circom',
): RegExp {
  const bitify = readFileSync(
    createRequire(import.meta.url).resolve('circomlib/circuits/bitify.circom'),
    'utf8',
  );
  const lines = bitify.split('\n');
  const start = lines.findIndex((l) => l.includes('template Num2Bits(n)'));
  const check = lines.findIndex((l, i) => i > start && l.includes('lc1 === in'));
  const parent = assertAt(parentTemplate, file, parentStatement).source.replace('Assert Failed[\\s\\S]*', '');
  return new RegExp(`Assert Failed[\\s\\S]*template Num2Bits_\\d+ line: ${check + 1}\\b[\\s\\S]*${parent}`);
}
