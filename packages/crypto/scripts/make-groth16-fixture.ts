/**
 * DEV-ONLY test fixtures for the Groth16 verifier: a toy Circom 2 circuit with exactly 5 public
 * signals (like VALID_INPUT), a local dev powers-of-tau and phase 2 (random contributions plus a
 * fixed beacon; nothing downloaded), and a dozen proofs.
 *
 * This key protects nothing. It exists only so the verifier can be tested before the real
 * VALID_INPUT / VALID_SPEND circuits and their ceremony are ready.
 *
 * A second toy circuit with 7 public signals (like VALID_SPEND) gives a second key, so the pool's
 * key ids are tested with keys of different sizes.
 *
 * Usage (from packages/crypto): npx tsx scripts/make-groth16-fixture.ts
 * Writes test/fixtures/groth16/{verification_key.json, proofs.json, circuit.circom} and the same
 * three files prefixed `spend7_`.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSnarkjs, terminateSnarkjs, type SnarkjsApi } from '../src/snarkjs.js';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', 'test', 'fixtures', 'groth16');

interface FixtureCircuit {
  /** File stem of the outputs: `<stem>verification_key.json`, `<stem>proofs.json`, `<stem>circuit.circom`. */
  stem: string;
  name: string;
  nPublic: number;
  proofs: number;
  source: string;
  input(i: number): Record<string, string>;
}

const randomField = (): string => BigInt('0x' + randomBytes(24).toString('hex')).toString();

const CIRCUITS: FixtureCircuit[] = [
  {
    // Like VALID_INPUT: 5 public signals, snarkjs order [out, c, d, e, f] (outputs, then public
    // inputs in declaration order); private a, b.
    stem: '',
    name: 'toy5',
    nPublic: 5,
    proofs: 12,
    source: `pragma circom 2.1.0;

// DEV-ONLY toy circuit for the Groth16 verifier tests: 5 public signals [out, c, d, e, f].
template Toy5() {
    signal input a;
    signal input b;
    signal input c;
    signal input d;
    signal input e;
    signal input f;
    signal output out;

    signal ab;
    signal de;
    signal def;
    ab <== a * b;
    de <== d * e;
    def <== de * f;
    out <== ab + c + def;
}

component main {public [c, d, e, f]} = Toy5();
`,
    input: (i) => ({
      a: String(3 + i),
      b: String(1000 + 7 * i),
      c: String(11 * i),
      d: String(2 + i),
      e: String(5 + 3 * i),
      f: randomField(),
    }),
  },
  {
    // Like VALID_SPEND: 7 public signals [out, c, d, e, f, g, h]; a second key for key-id tests.
    stem: 'spend7_',
    name: 'toy7',
    nPublic: 7,
    proofs: 4,
    source: `pragma circom 2.1.0;

// DEV-ONLY toy circuit for the Groth16 verifier tests: 7 public signals [out, c, d, e, f, g, h].
template Toy7() {
    signal input a;
    signal input b;
    signal input c;
    signal input d;
    signal input e;
    signal input f;
    signal input g;
    signal input h;
    signal output out;

    signal ab;
    signal cd;
    signal ef;
    signal gh;
    ab <== a * b;
    cd <== c * d;
    ef <== e * f;
    gh <== g * h;
    out <== ab + cd + ef + gh;
}

component main {public [c, d, e, f, g, h]} = Toy7();
`,
    input: (i) => ({
      a: String(17 + i),
      b: randomField(),
      c: String(i),
      d: String(9 + i),
      e: randomField(),
      f: String(4),
      g: String(100 + i),
      h: String(2 * i + 1),
    }),
  },
];

const BEACON = '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20';

/** Writes JSON formatted as the repository's prettier config wants it (so `prettier --check` passes). */
async function writeJson(file: string, value: unknown): Promise<void> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(JSON.stringify(value), { ...options, filepath: file }));
}

async function makeFixture(snarkjs: SnarkjsApi, work: string, circuit: FixtureCircuit): Promise<void> {
  const circuitFile = join(work, `${circuit.name}.circom`);
  writeFileSync(circuitFile, circuit.source);

  const require = createRequire(import.meta.url);
  const circom2 = require.resolve('circom2/cli.js');
  execFileSync(process.execPath, [circom2, circuitFile, '--r1cs', '--wasm', '-o', work], {
    stdio: 'inherit',
  });
  const r1cs = join(work, `${circuit.name}.r1cs`);
  const wasm = join(work, `${circuit.name}_js`, `${circuit.name}.wasm`);

  // Phase 1: a tiny dev powers of tau (2^6), one random contribution, a fixed beacon.
  const curve = await snarkjs.curves.getCurveFromName('bn128');
  const pot = (k: string): string => join(work, `${circuit.name}_pot_${k}.ptau`);
  await snarkjs.powersOfTau.newAccumulator(curve, 6, pot('0'));
  await snarkjs.powersOfTau.contribute(
    pot('0'),
    pot('1'),
    'dev contribution',
    randomBytes(32).toString('hex'),
  );
  await snarkjs.powersOfTau.beacon(pot('1'), pot('2'), 'dev beacon', BEACON, 10);
  await snarkjs.powersOfTau.preparePhase2(pot('2'), pot('final'));

  // Phase 2: circuit-specific, one random contribution, a fixed beacon.
  const zkey = (k: string): string => join(work, `${circuit.name}_${k}.zkey`);
  await snarkjs.zKey.newZKey(r1cs, pot('final'), zkey('0'));
  await snarkjs.zKey.contribute(zkey('0'), zkey('1'), 'dev contribution', randomBytes(32).toString('hex'));
  await snarkjs.zKey.beacon(zkey('1'), zkey('final'), 'dev beacon', BEACON, 10);
  const vk = await snarkjs.zKey.exportVerificationKey(zkey('final'));
  if (vk.nPublic !== circuit.nPublic)
    throw new Error(`${circuit.name}: expected ${circuit.nPublic} public signals`);

  const proofs: unknown[] = [];
  for (let i = 0; i < circuit.proofs; i++) {
    const { proof, publicSignals } = await snarkjs.groth16.fullProve(circuit.input(i), wasm, zkey('final'));
    if (!(await snarkjs.groth16.verify(vk, publicSignals, proof)))
      throw new Error('snarkjs rejected its proof');
    proofs.push({ publicSignals, proof });
  }

  mkdirSync(outDir, { recursive: true });
  await writeJson(join(outDir, `${circuit.stem}verification_key.json`), vk);
  await writeJson(join(outDir, `${circuit.stem}proofs.json`), proofs);
  writeFileSync(join(outDir, `${circuit.stem}circuit.circom`), circuit.source);
  console.log(`${circuit.name}: wrote ${circuit.proofs} proofs and the verification key to ${outDir}`);
}

async function main(): Promise<void> {
  const snarkjs = await loadSnarkjs();
  const work = mkdtempSync(join(tmpdir(), 'nightjar-groth16-fixture-'));
  try {
    for (const circuit of CIRCUITS) await makeFixture(snarkjs, work, circuit);
  } finally {
    rmSync(work, { recursive: true, force: true });
    await terminateSnarkjs();
  }
}

await main();
