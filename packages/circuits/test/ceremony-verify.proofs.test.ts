/**
 * The committed ceremony's phase-1 files are pinned by the manifest. The full check, `snarkjs
 * zkey verify <circuit>.r1cs <ptau> <circuit>.zkey` for every circuit (it re-derives each zkey
 * from its r1cs and phase-1 file, then checks every contribution and the beacon recorded in it),
 * takes minutes per key on two shared cores and over ten for VALID_MATCH, too long for every run
 * of the suite: `npm run verify-ceremony -w packages/circuits` runs it, and it passed on the
 * committed keys (README, "Checking the committed keys"). The keys' use is checked on every run:
 * proofs from each zkey verify with its committed vkey (prover, native-prover and valid-match
 * tests), and the wasm and r1cs are recompiled from the sources (sources.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { CIRCUITS, PTAU_FILE, loadArtifact, type CircuitName } from '../src/artifacts.js';

describe('the committed dev ceremony', () => {
  it('pins the phase-1 files, the zkeys and the r1cs files in the manifest', async () => {
    // Throws ArtifactIntegrityError unless each file on disk has the manifest's SHA-256.
    await expect(loadArtifact(PTAU_FILE)).resolves.toBeInstanceOf(Uint8Array);
    for (const name of Object.keys(CIRCUITS) as CircuitName[]) {
      for (const file of [CIRCUITS[name].ptau, CIRCUITS[name].zkey, CIRCUITS[name].r1cs]) {
        await expect(loadArtifact(file)).resolves.toBeInstanceOf(Uint8Array);
      }
    }
  });
});
