import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GROTH16_FIXTURES } from '@nightjar/testkit/fixtures';
import { ARTIFACTS_DIR, CIRCUITS, MANIFEST_FILE, readManifest, sha256Hex } from '../src/artifacts.js';
import { DevOnlyKeysError, circuitKeysInfo, loadCircuitKeys } from '../src/circuit-keys.js';

const TOY = GROTH16_FIXTURES;

/** A directory laid out like a real ceremony's result: manifest (dev_only false) and the two required vkeys. */
function ceremonyDir(root: string, vkeys: { valid_input_v2: Buffer; valid_spend_v2: Buffer }): string {
  const dir = mkdtempSync(join(root, 'keys-'));
  const files: Record<string, { sha256: string; bytes: number }> = {};
  for (const name of ['valid_input_v2', 'valid_spend_v2'] as const) {
    writeFileSync(join(dir, CIRCUITS[name].vkey), vkeys[name]);
    files[CIRCUITS[name].vkey] = { sha256: sha256Hex(vkeys[name]), bytes: vkeys[name].length };
  }
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ dev_only: false, files }));
  return dir;
}

describe('loadCircuitKeys', () => {
  const root = mkdtempSync(join(tmpdir(), 'nightjar-keys-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // Toy keys of a real (non-dev) setup with the right numbers of public inputs: 3 and 9.
  const toy = {
    valid_input_v2: readFileSync(new URL('toy3_verification_key.json', TOY)),
    valid_spend_v2: readFileSync(new URL('toy9_verification_key.json', TOY)),
  };

  it('dev mode: the committed keys, marked dev-only, with the hashes the manifest pins', async () => {
    const set = await loadCircuitKeys({ allowDevOnly: true });
    const files = (await readManifest()).files;
    expect(set.devOnly).toBe(true);
    // /info names the keys the venue verifies with: VALID_INPUT v2 at intake, the v2 settlement keys.
    expect(circuitKeysInfo(set)).toEqual({
      dev_only: true,
      valid_input_vkey_sha256: files['valid_input_v2.vkey.json']!.sha256,
      valid_spend_vkey_sha256: files['valid_spend_v2.vkey.json']!.sha256,
      valid_lock_vkey_sha256: files['valid_lock.vkey.json']!.sha256,
      valid_match_vkey_sha256: files['valid_match_v2.vkey.json']!.sha256,
      valid_join_split_vkey_sha256: files['valid_join_split_v2.vkey.json']!.sha256,
    });
    expect(set.keys.valid_input_v2.nPublic).toBe(3);
    expect(set.keys.valid_spend_v2.nPublic).toBe(9);
    expect(set.keys.valid_lock?.nPublic).toBe(3);
    expect(set.keys.valid_match_v2?.nPublic).toBe(CIRCUITS.valid_match_v2.publicInputs.length);
    expect(set.keys.valid_join_split_v2?.nPublic).toBe(17);
    expect(CIRCUITS.valid_spend_v2.publicInputs.length).toBe(9);
    // Only the circuits of CIRCUITS are read: nothing else in a key directory is a key.
    expect(Object.keys(set.keys).sort()).toEqual(Object.keys(CIRCUITS).sort());
  });

  it('outside dev mode: refuses the committed keys with an error that names the fix', async () => {
    const err = await loadCircuitKeys({ allowDevOnly: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DevOnlyKeysError);
    expect((err as Error).message).toMatch(/DEV-ONLY ceremony.*--circuit-keys DIR.*README/s);
  });

  it('outside dev mode: refuses a copy of the dev keys whose manifest no longer says dev-only', async () => {
    const dir = mkdtempSync(join(root, 'copy-'));
    for (const c of Object.values(CIRCUITS)) cpSync(join(ARTIFACTS_DIR, c.vkey), join(dir, c.vkey));
    const manifest = await readManifest();
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ ...manifest, dev_only: false }));
    await expect(loadCircuitKeys({ dir, allowDevOnly: false })).rejects.toBeInstanceOf(DevOnlyKeysError);
  });

  it('outside dev mode: accepts a real ceremony directory, each key checked against its pinned hash', async () => {
    const dir = ceremonyDir(root, toy);
    const set = await loadCircuitKeys({ dir, allowDevOnly: false });
    expect(set.devOnly).toBe(false);
    expect(set.vkeySha256.valid_input_v2).toBe(sha256Hex(toy.valid_input_v2));
    expect(set.keys.valid_input_v2.nPublic).toBe(3);
    // The settlement keys are optional: a settling verifier must refuse a set without them.
    expect(set.keys.valid_match_v2).toBeUndefined();
    expect(set.keys.valid_lock).toBeUndefined();
    expect(circuitKeysInfo(set)).toEqual({
      dev_only: false,
      valid_input_vkey_sha256: sha256Hex(toy.valid_input_v2),
      valid_spend_vkey_sha256: sha256Hex(toy.valid_spend_v2),
    });

    const tampered = ceremonyDir(root, toy);
    writeFileSync(join(tampered, CIRCUITS.valid_spend_v2.vkey), toy.valid_input_v2);
    await expect(loadCircuitKeys({ dir: tampered, allowDevOnly: false })).rejects.toThrow(/does not match/);
    // A key with the wrong number of public inputs for its circuit is refused too.
    const swapped = ceremonyDir(root, {
      valid_input_v2: toy.valid_spend_v2,
      valid_spend_v2: toy.valid_input_v2,
    });
    await expect(loadCircuitKeys({ dir: swapped, allowDevOnly: false })).rejects.toThrow(/nPublic/);
    // A key set of the retired first VALID_INPUT (5 public inputs) is refused in its place.
    const v1 = readFileSync(new URL('verification_key.json', TOY));
    const retired = ceremonyDir(root, { valid_input_v2: v1, valid_spend_v2: toy.valid_spend_v2 });
    await expect(loadCircuitKeys({ dir: retired, allowDevOnly: false })).rejects.toThrow(/nPublic 5/);
    // A VALID_SPEND v1 key (7 public inputs) in VALID_SPEND v2's place is refused.
    const spendV1 = readFileSync(new URL('spend7_verification_key.json', TOY));
    const oldSpend = ceremonyDir(root, { valid_input_v2: toy.valid_input_v2, valid_spend_v2: spendV1 });
    await expect(loadCircuitKeys({ dir: oldSpend, allowDevOnly: false })).rejects.toThrow(/nPublic 7/);
  });

  it('a key directory with VALID_SPEND v1 only (valid_spend.vkey.json, no valid_spend_v2) is refused', async () => {
    const dir = mkdtempSync(join(root, 'spend-v1-'));
    const spendV1 = readFileSync(new URL('spend7_verification_key.json', TOY));
    writeFileSync(join(dir, CIRCUITS.valid_input_v2.vkey), toy.valid_input_v2);
    writeFileSync(join(dir, 'valid_spend.vkey.json'), spendV1);
    const files = {
      [CIRCUITS.valid_input_v2.vkey]: {
        sha256: sha256Hex(toy.valid_input_v2),
        bytes: toy.valid_input_v2.length,
      },
      'valid_spend.vkey.json': { sha256: sha256Hex(spendV1), bytes: spendV1.length },
    };
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ dev_only: false, files }));
    await expect(loadCircuitKeys({ dir, allowDevOnly: false })).rejects.toThrow(
      /valid_spend_v2\.vkey\.json is not in the manifest/,
    );
  });

  it('a key directory of the first statements only (valid_input.vkey.json, no valid_input_v2) is refused', async () => {
    const dir = mkdtempSync(join(root, 'v1-'));
    const v1 = readFileSync(new URL('verification_key.json', TOY));
    writeFileSync(join(dir, 'valid_input.vkey.json'), v1);
    writeFileSync(join(dir, CIRCUITS.valid_spend_v2.vkey), toy.valid_spend_v2);
    const files = {
      'valid_input.vkey.json': { sha256: sha256Hex(v1), bytes: v1.length },
      [CIRCUITS.valid_spend_v2.vkey]: {
        sha256: sha256Hex(toy.valid_spend_v2),
        bytes: toy.valid_spend_v2.length,
      },
    };
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify({ dev_only: false, files }));
    await expect(loadCircuitKeys({ dir, allowDevOnly: false })).rejects.toThrow(
      /valid_input_v2\.vkey\.json is not in the manifest/,
    );
  });
});
