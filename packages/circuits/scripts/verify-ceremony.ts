/**
 * `npm run verify-ceremony -w packages/circuits`: `snarkjs zkey verify <circuit>.r1cs <ptau>
 * <circuit>.zkey` for every committed circuit, on the hash-pinned files (exit 1 if any fails).
 * Minutes per key on two shared cores (over ten for VALID_MATCH), so the suite does not run it
 * (test/ceremony-verify.proofs.test.ts checks the pins).
 */
import { join } from 'node:path';

import { loadSnarkjs, terminateSnarkjs } from '@nightjar/crypto';

import { ARTIFACTS_DIR, CIRCUITS, artifactPaths, loadArtifact, type CircuitName } from '../src/artifacts.js';

const quiet = { debug: () => {}, info: () => {}, warn: console.warn, error: console.error };

async function main(): Promise<number> {
  const snarkjs = await loadSnarkjs();
  let failed = 0;
  for (const name of Object.keys(CIRCUITS) as CircuitName[]) {
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
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
