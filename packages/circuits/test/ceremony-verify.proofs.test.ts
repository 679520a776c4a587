/**
 * Anyone can check the committed keys against the committed ceremony: `snarkjs zkey verify
 * <circuit>.r1cs <ptau> <circuit>.zkey` (pot13_final.ptau, pot15_final.ptau for VALID_MATCH) re-derives each zkey's initial state from the
 * r1cs and the phase-1 file, then checks every phase-2 contribution (and the beacon) recorded in
 * the zkey. This test does exactly that through the snarkjs API, on the hash-pinned files.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS_DIR,
  CIRCUITS,
  PTAU_FILE,
  artifactPaths,
  loadArtifact,
  type CircuitName,
} from '../src/artifacts.js';
import { snarkjs, terminateCurve } from './helpers.js';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: (m: string) => console.error(m) };

describe('the committed dev ceremony', () => {
  afterAll(() => terminateCurve());

  it('pins the phase-1 files in the manifest', async () => {
    // Throws ArtifactIntegrityError unless the ptau on disk has the manifest's SHA-256.
    await expect(loadArtifact(PTAU_FILE)).resolves.toBeInstanceOf(Uint8Array);
    for (const name of Object.keys(CIRCUITS) as CircuitName[]) {
      await expect(loadArtifact(CIRCUITS[name].ptau)).resolves.toBeInstanceOf(Uint8Array);
    }
  });

  // VALID_MATCH's check re-derives a power-15 key: over ten minutes on two shared cores, too
  // long for every run of the suite. `npm run verify-ceremony -w packages/circuits` checks all
  // three keys (README, "Checking the committed keys"); its result on the committed keys is there.
  const inSuite = (Object.keys(CIRCUITS) as CircuitName[]).filter((n) => CIRCUITS[n].ptau === PTAU_FILE);

  it('checks every circuit on the power-13 phase 1 here, and VALID_MATCH by script', () => {
    expect(inSuite).toEqual(['valid_input', 'valid_spend']);
  });

  for (const name of inSuite) {
    it(`snarkjs zkey verify ${name}.r1cs ${CIRCUITS[name].ptau} ${name}.zkey`, async () => {
      const paths = artifactPaths(name);
      for (const file of [CIRCUITS[name].r1cs, CIRCUITS[name].zkey]) await loadArtifact(file);
      const ok = await snarkjs.zKey.verifyFromR1cs(
        paths.r1cs,
        join(ARTIFACTS_DIR, CIRCUITS[name].ptau),
        paths.zkey,
        quiet,
      );
      expect(ok).toBe(true);
    }, 900_000);
  }
});
