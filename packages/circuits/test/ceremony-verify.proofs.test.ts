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

  for (const name of Object.keys(CIRCUITS) as CircuitName[]) {
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
