/**
 * DEV-ONLY: a toy Circom 2 circuit with exactly N public signals, 3 (like VALID_INPUT v2:
 * [use_tag, merkle_root, nullifier]) or 9 (like VALID_SPEND v2), and its verification key, set up
 * on the circuits package's committed phase-1 file (artifacts/pot13_final.ptau) with one random
 * phase-2 contribution and a fixed beacon. The key protects nothing: circuit-keys tests use it as a
 * "real ceremony" key that is not the committed dev key. Generated once and committed; never at
 * test time.
 *
 * Usage (from packages/crypto): npx tsx scripts/make-toy-key.ts 3   (or 9)
 * Writes test/fixtures/groth16/{toyN_circuit.circom, toyN_verification_key.json}.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSnarkjs, terminateSnarkjs } from '../src/snarkjs.js';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', 'test', 'fixtures', 'groth16');
const ptau = join(here, '..', '..', 'circuits', 'artifacts', 'pot13_final.ptau');
const BEACON = '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20';

/** The circuit each toy key stands in for, by its number of public signals. */
const LIKE: Readonly<Record<number, string>> = { 3: 'VALID_INPUT v2', 9: 'VALID_SPEND v2' };

/** `out` and the public inputs c, d, ... (n - 1 of them); only c and d enter a constraint. */
function toySource(n: number): string {
  const publicInputs = Array.from({ length: n - 1 }, (_, i) => String.fromCharCode(0x63 + i));
  const inputs = ['a', 'b', ...publicInputs].map((x) => `    signal input ${x};\n`).join('');
  return `pragma circom 2.1.0;

// DEV-ONLY toy circuit for the circuit-keys tests: ${n} public signals [out, ${publicInputs.join(', ')}] (like ${LIKE[n]}).
template Toy${n}() {
${inputs}    signal output out;

    signal ab;
    signal cd;
    ab <== a * b;
    cd <== c * d;
    out <== ab + cd;
}

component main {public [${publicInputs.join(', ')}]} = Toy${n}();
`;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(JSON.stringify(value), { ...options, filepath: file }));
}

async function main(n: number): Promise<void> {
  if (LIKE[n] === undefined) throw new Error(`usage: make-toy-key.ts ${Object.keys(LIKE).join('|')}`);
  const stem = `toy${n}`;
  const source = toySource(n);
  const snarkjs = await loadSnarkjs();
  const work = mkdtempSync(join(tmpdir(), `nightjar-${stem}-`));
  try {
    const circuitFile = join(work, `${stem}.circom`);
    writeFileSync(circuitFile, source);
    const circom2 = createRequire(import.meta.url).resolve('circom2/cli.js');
    execFileSync(process.execPath, [circom2, circuitFile, '--r1cs', '-o', work], { stdio: 'inherit' });
    const zkey = (k: string): string => join(work, `${stem}_${k}.zkey`);
    await snarkjs.zKey.newZKey(join(work, `${stem}.r1cs`), ptau, zkey('0'));
    await snarkjs.zKey.contribute(zkey('0'), zkey('1'), 'dev contribution', randomBytes(32).toString('hex'));
    await snarkjs.zKey.beacon(zkey('1'), zkey('final'), 'dev beacon', BEACON, 10);
    const vk = await snarkjs.zKey.exportVerificationKey(zkey('final'));
    if (vk.nPublic !== n) throw new Error(`${stem}: nPublic ${vk.nPublic}, expected ${n}`);
    await writeJson(join(outDir, `${stem}_verification_key.json`), vk);
    writeFileSync(join(outDir, `${stem}_circuit.circom`), source);
    console.log(`${stem}: wrote the circuit and its verification key to ${outDir}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    await terminateSnarkjs();
  }
}

await main(Number(process.argv[2] ?? 3));
