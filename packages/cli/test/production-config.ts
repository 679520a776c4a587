/**
 * What a production (non-dev) venue is configured with, for tests: a genesis authority and a
 * circuit-keys directory standing in for a real ceremony's result. The required keys are the
 * crypto package's toy Groth16 keys (3 and 7 public inputs, like VALID_INPUT v2 and VALID_SPEND):
 * they are not the dev ceremony's, which is all a production verifier asks; no test proves
 * against them. The stand-ins of VALID_LOCK and VALID_MATCH v2 are derived from the dev keys (see
 * writeCeremonyKeys).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import { addressToBase58, bytesToHex, ed25519PublicKey, fieldToHex } from '@nightjar/protocol';
import { artifactPaths, sha256Hex } from '@nightjar/circuits';
import { GROTH16_FIXTURES } from '@nightjar/testkit/fixtures';

const TOY = GROTH16_FIXTURES;

/** Writes `<dir>/circuit-keys` (manifest.json with `dev_only: false` + the vkeys) and returns it. */
export function writeCeremonyKeys(dir: string): string {
  const out = join(dir, 'circuit-keys');
  mkdirSync(out, { recursive: true });
  const files: Record<string, { sha256: string; bytes: number }> = {};
  const put = (name: string, bytes: Uint8Array) => {
    writeFileSync(join(out, name), bytes);
    files[name] = { sha256: sha256Hex(bytes), bytes: bytes.length };
  };
  for (const [name, toy] of [
    ['valid_input_v2.vkey.json', 'toy3_verification_key.json'],
    ['valid_spend_v2.vkey.json', 'toy9_verification_key.json'],
  ] as const) {
    put(name, readFileSync(new URL(toy, TOY)));
  }
  // No toy key has VALID_MATCH v2's public inputs: the dev key with gamma and delta swapped is a
  // well-formed key that is not the dev ceremony's (a settling venue refuses to start without one);
  // VALID_LOCK's likewise.
  for (const circuit of ['valid_lock', 'valid_match_v2'] as const) {
    const dev = JSON.parse(readFileSync(artifactPaths(circuit).vkey, 'utf8')) as Record<string, unknown>;
    const stand = { ...dev, vk_gamma_2: dev.vk_delta_2, vk_delta_2: dev.vk_gamma_2 };
    put(`${circuit}.vkey.json`, Buffer.from(JSON.stringify(stand, null, 2)));
  }
  writeFileSync(join(out, 'manifest.json'), JSON.stringify({ dev_only: false, files }, null, 2));
  return out;
}

export interface TestAuthority {
  seed: Uint8Array;
  admin: string;
  feeOwnerCommitment: string;
}

export function newAuthority(): TestAuthority {
  const seed = Uint8Array.from(randomBytes(32));
  return {
    seed,
    admin: addressToBase58(ed25519PublicKey(seed)),
    feeOwnerCommitment: fieldToHex(ownerCommitment(randomFieldElement())),
  };
}

/** The authority key file `nightjar start --no-dev --authority-key FILE` reads (mode 0600). */
export function writeAuthorityKey(dir: string, authority: TestAuthority): string {
  const file = join(dir, 'authority.json');
  writeFileSync(
    file,
    JSON.stringify({
      admin_seed: bytesToHex(authority.seed),
      fee_owner_commitment: authority.feeOwnerCommitment,
    }),
    { mode: 0o600 },
  );
  return file;
}
