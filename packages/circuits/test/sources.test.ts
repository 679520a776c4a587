/**
 * The committed artifacts were built from the circuits in this tree: each circuit's source
 * fingerprint (its file and local includes) is the one the ceremony recorded, with the circom
 * recorded. Recompiling byte for byte takes minutes per circuit here, so
 * `npm run verify-ceremony` does that (scripts/verify-ceremony.ts).
 */
import { describe, expect, it } from 'vitest';

import { CIRCUITS, readManifest, type CircuitName } from '../src/artifacts.js';
import { circomVersion } from '../scripts/ceremony.js';
import { circuitSourceFiles, circuitSourceSha256 } from '../scripts/circuit-sources.js';

describe('committed artifacts are up to date with circuits/*.circom', () => {
  it('the installed circom is the one recorded in the manifest', async () => {
    expect(circomVersion()).toBe((await readManifest()).versions.circom);
  });

  it.each(Object.keys(CIRCUITS) as CircuitName[])(
    '%s: its sources are the ones its artifacts were built from',
    async (name) => {
      const recorded = (await readManifest()).circuits[name].source_sha256;
      expect(
        recorded,
        `rerun the ceremony for ${name}: its manifest entry has no source_sha256`,
      ).toBeDefined();
      expect(
        circuitSourceSha256(name),
        `circuits/${name}.circom or an include changed: rerun the ceremony`,
      ).toBe(recorded);
    },
  );

  it('the fingerprint covers the shared templates, transitively', () => {
    expect(circuitSourceFiles('valid_match_v2').map((f) => f.split('/').pop())).toEqual([
      'note.circom',
      'settlement_v2.circom',
      'valid_match_v2.circom',
    ]);
  });
});
