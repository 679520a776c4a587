/**
 * `npm run verify-ceremony -w packages/circuits`: for every committed circuit, recompiles it and
 * compares the r1cs and wasm with the committed ones byte for byte, then runs `snarkjs zkey verify
 * <circuit>.r1cs <ptau> <circuit>.zkey` on the hash-pinned files (exit 1 if anything fails).
 * Minutes per circuit on two shared cores (most for the power-15 circuits), so the suite does not run
 * it: test/sources.test.ts checks the source fingerprints, test/ceremony-verify.proofs.test.ts
 * the pins.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadSnarkjs, terminateSnarkjs } from '@nightjar/crypto';

import {
  ARTIFACTS_DIR,
  CIRCUITS,
  artifactPaths,
  loadArtifact,
  readManifest,
  type CircuitName,
} from '../src/artifacts.js';
import { compileCircuit, sha256File } from './ceremony.js';

const OUT = fileURLToPath(new URL('../build/source-check/', import.meta.url));

/** Recompiles `name` and compares its r1cs and wasm with the manifest's pins. */
async function recompiles(name: CircuitName): Promise<boolean> {
  const manifest = await readManifest();
  const dir = join(OUT, name);
  const t0 = Date.now();
  compileCircuit(name, dir);
  const ok =
    sha256File(join(dir, `${name}.r1cs`)) === manifest.files[CIRCUITS[name].r1cs]?.sha256 &&
    sha256File(join(dir, `${name}_js`, `${name}.wasm`)) === manifest.files[CIRCUITS[name].wasm]?.sha256;
  console.log(
    `${name}: recompiled r1cs and wasm ${ok ? 'match' : 'DIFFER FROM'} the committed ones (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
  return ok;
}

const quiet = { debug: () => {}, info: () => {}, warn: console.warn, error: console.error };

async function main(): Promise<number> {
  const snarkjs = await loadSnarkjs();
  let failed = 0;
  for (const name of Object.keys(CIRCUITS) as CircuitName[]) {
    if (!(await recompiles(name))) failed++;
    const c = CIRCUITS[name];
    // Throws unless each file has the manifest's SHA-256.
    for (const file of [c.r1cs, c.zkey, c.ptau]) await loadArtifact(file);
    const t0 = Date.now();
    const paths = artifactPaths(name);
    const ok = await snarkjs.zKey.verifyFromR1cs(paths.r1cs, join(ARTIFACTS_DIR, c.ptau), paths.zkey, quiet);
    console.log(
      `${name}: zkey verify against ${c.ptau}: ${ok ? 'OK' : 'FAILED'} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
    if (!ok) failed++;
  }
  await terminateSnarkjs();
  rmSync(OUT, { recursive: true, force: true });
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
