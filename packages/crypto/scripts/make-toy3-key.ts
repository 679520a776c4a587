/**
 * DEV-ONLY: a toy Circom 2 circuit with exactly 3 public signals (like VALID_INPUT v2:
 * [use_tag, merkle_root, nullifier]) and its verification key, set up on the circuits package's
 * committed phase-1 file (artifacts/pot13_final.ptau) with one random phase-2 contribution and a
 * fixed beacon. The key protects nothing: circuit-keys tests use it as a "real ceremony" key that
 * is not the committed dev key. Generated once and committed; never at test time.
 *
 * Usage (from packages/crypto): npx tsx scripts/make-toy3-key.ts
 * Writes test/fixtures/groth16/{toy3_circuit.circom, toy3_verification_key.json}.
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

const SOURCE = `pragma circom 2.1.0;

// DEV-ONLY toy circuit for the circuit-keys tests: 3 public signals [out, c, d] (like VALID_INPUT v2).
template Toy3() {
    signal input a;
    signal input b;
    signal input c;
    signal input d;
    signal output out;

    signal ab;
    signal cd;
    ab <== a * b;
    cd <== c * d;
    out <== ab + cd;
}

component main {public [c, d]} = Toy3();
`;

async function writeJson(file: string, value: unknown): Promise<void> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(JSON.stringify(value), { ...options, filepath: file }));
}

async function main(): Promise<void> {
  const snarkjs = await loadSnarkjs();
  const work = mkdtempSync(join(tmpdir(), 'nightjar-toy3-'));
  try {
    const circuitFile = join(work, 'toy3.circom');
    writeFileSync(circuitFile, SOURCE);
    const circom2 = createRequire(import.meta.url).resolve('circom2/cli.js');
    execFileSync(process.execPath, [circom2, circuitFile, '--r1cs', '-o', work], { stdio: 'inherit' });
    const zkey = (k: string): string => join(work, `toy3_${k}.zkey`);
    await snarkjs.zKey.newZKey(join(work, 'toy3.r1cs'), ptau, zkey('0'));
    await snarkjs.zKey.contribute(zkey('0'), zkey('1'), 'dev contribution', randomBytes(32).toString('hex'));
    await snarkjs.zKey.beacon(zkey('1'), zkey('final'), 'dev beacon', BEACON, 10);
    const vk = await snarkjs.zKey.exportVerificationKey(zkey('final'));
    if (vk.nPublic !== 3) throw new Error(`toy3: nPublic ${vk.nPublic}, expected 3`);
    await writeJson(join(outDir, 'toy3_verification_key.json'), vk);
    writeFileSync(join(outDir, 'toy3_circuit.circom'), SOURCE);
    console.log(`toy3: wrote the circuit and its verification key to ${outDir}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    await terminateSnarkjs();
  }
}

await main();
