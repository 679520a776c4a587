import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import {
  ARTIFACTS_DIR,
  ArtifactIntegrityError,
  CIRCUITS,
  MANIFEST_FILE,
  PTAU_FILE,
  artifactPaths,
  loadArtifact,
  loadCircuitArtifacts,
  readManifest,
  verifyAllArtifacts,
  type CircuitName,
} from '../src/artifacts.js';
import { snarkjs, terminateCurve } from './helpers.js';

const NAMES = Object.keys(CIRCUITS) as CircuitName[];
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('committed artifacts', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'nightjar-artifacts-'));
  afterAll(async () => {
    rmSync(tmp, { recursive: true, force: true });
    await terminateCurve();
  });

  it('manifest hashes and sizes match the files on disk, and every file is listed', async () => {
    const manifest = await readManifest();
    const onDisk = readdirSync(ARTIFACTS_DIR).filter((f) => f !== MANIFEST_FILE);
    expect(Object.keys(manifest.files).sort()).toEqual(onDisk.sort());
    for (const [file, entry] of Object.entries(manifest.files)) {
      const path = join(ARTIFACTS_DIR, file);
      expect(sha256(path), file).toBe(entry.sha256);
      expect(statSync(path).size, file).toBe(entry.bytes);
    }
    await expect(verifyAllArtifacts()).resolves.toBe(manifest);
  });

  it('is marked dev-only and describes every circuit', async () => {
    const manifest = await readManifest();
    expect(manifest.dev_only).toBe(true);
    expect(manifest.warning).toMatch(/DEV-ONLY/);
    expect(manifest.protocol).toBe('groth16');
    // Exactly the circuits of CIRCUITS, each with its phase-2 record: no retired circuit lingers.
    expect(Object.keys(manifest.circuits)).toEqual(NAMES);
    const phase2 = (manifest.ceremony as { phase2: { contributions: { circuit: string }[] } }).phase2;
    expect(phase2.contributions.map((c) => c.circuit)).toEqual(NAMES);
    for (const name of NAMES) {
      const c = manifest.circuits[name];
      const paths = artifactPaths(name);
      expect(c.public_inputs).toEqual(CIRCUITS[name].publicInputs);
      expect(c.files).toEqual({
        wasm: CIRCUITS[name].wasm,
        zkey: CIRCUITS[name].zkey,
        vkey: CIRCUITS[name].vkey,
        r1cs: CIRCUITS[name].r1cs,
      });
      const info = await snarkjs.r1cs.info(paths.r1cs);
      expect(info.nConstraints).toBe(c.constraints);
      expect(info.nPubInputs + info.nOutputs).toBe(c.public_inputs.length);
      // The domain (constraints + public inputs + 1) fits the circuit's phase-1 power.
      const power = c.ptau_power ?? manifest.ptau_power;
      expect(c.ptau ?? PTAU_FILE).toBe(CIRCUITS[name].ptau);
      const domain = info.nConstraints + c.public_inputs.length + 1;
      expect(domain).toBeLessThanOrEqual(2 ** power);
    }
    // Each phase-1 file is the smallest power that holds the largest circuit set up from it.
    for (const ptau of new Set(NAMES.map((n) => CIRCUITS[n].ptau))) {
      const users = NAMES.filter((n) => CIRCUITS[n].ptau === ptau);
      const power = manifest.circuits[users[0] as CircuitName].ptau_power ?? manifest.ptau_power;
      const largest = Math.max(
        ...users.map((n) => manifest.circuits[n].constraints + CIRCUITS[n].publicInputs.length + 1),
      );
      expect(largest, ptau).toBeGreaterThan(2 ** (power - 1));
    }
  });

  it('verification keys match the circuits and the zkeys they were exported from', async () => {
    for (const name of NAMES) {
      const a = await loadCircuitArtifacts(name);
      expect(a.vkey.protocol).toBe('groth16');
      expect(a.vkey.nPublic).toBe(CIRCUITS[name].publicInputs.length);
      expect(a.vkey.IC).toHaveLength(CIRCUITS[name].publicInputs.length + 1);
      const fromZkey = await snarkjs.zKey.exportVerificationKey(a.zkey);
      expect(JSON.parse(JSON.stringify(fromZkey))).toEqual(a.vkey);
    }
  });

  it('the loader rejects a modified artifact with a typed error', async () => {
    cpSync(ARTIFACTS_DIR, tmp, { recursive: true });
    const file = CIRCUITS.valid_input_v2.vkey;
    await expect(loadArtifact(file, tmp)).resolves.toBeInstanceOf(Uint8Array);

    const bytes = readFileSync(join(tmp, file));
    bytes[10] = (bytes[10] as number) ^ 1;
    writeFileSync(join(tmp, file), bytes);
    const err = await loadArtifact(file, tmp).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArtifactIntegrityError);
    const e = err as ArtifactIntegrityError;
    expect(e.file).toBe(file);
    expect(e.expectedSha256).toBe((await readManifest()).files[file]?.sha256);
    expect(e.actualSha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    await expect(verifyAllArtifacts(tmp)).rejects.toBeInstanceOf(ArtifactIntegrityError);

    await expect(loadArtifact('not-listed.bin', tmp)).rejects.toBeInstanceOf(ArtifactIntegrityError);
    rmSync(join(tmp, CIRCUITS.valid_spend_v2.wasm));
    await expect(loadArtifact(CIRCUITS.valid_spend_v2.wasm, tmp)).rejects.toBeInstanceOf(
      ArtifactIntegrityError,
    );
  });
});
