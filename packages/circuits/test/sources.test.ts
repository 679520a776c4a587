import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

import { CIRCUITS, readManifest, type CircuitName } from '../src/artifacts.js';
import { circomVersion, compileCircuit } from '../scripts/ceremony.js';

const OUT = fileURLToPath(new URL('../build/source-check/', import.meta.url));
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('committed artifacts are up to date with circuits/*.circom', () => {
  afterAll(() => rmSync(OUT, { recursive: true, force: true }));

  it('the installed circom is the one recorded in the manifest', async () => {
    expect(circomVersion()).toBe((await readManifest()).versions.circom);
  });

  it.each(Object.keys(CIRCUITS) as CircuitName[])(
    '%s: recompiling gives the committed r1cs and wasm byte for byte',
    async (name) => {
      const manifest = await readManifest();
      const dir = join(OUT, name);
      mkdirSync(dir, { recursive: true });
      compileCircuit(name, dir);
      expect(sha256(join(dir, `${name}.r1cs`))).toBe(manifest.files[CIRCUITS[name].r1cs]?.sha256);
      expect(sha256(join(dir, `${name}_js`, `${name}.wasm`))).toBe(
        manifest.files[CIRCUITS[name].wasm]?.sha256,
      );
    },
    // VALID_MATCH compiles in ~2 min on an idle 2-core machine.
    600_000,
  );
});
