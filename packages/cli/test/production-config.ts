/**
 * What a production (non-dev) venue is configured with, for tests: a genesis authority and a
 * circuit-keys directory standing in for a real ceremony's result. The keys are the crypto
 * package's toy Groth16 keys (5 and 7 public inputs, like VALID_INPUT and VALID_SPEND): they are
 * not the dev ceremony's, which is all a production verifier asks; no test proves against them.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import { addressToBase58, bytesToHex, ed25519PublicKey, fieldToHex } from '@nightjar/protocol';
import { sha256Hex } from '@nightjar/circuits';

const TOY = new URL('../../crypto/test/fixtures/groth16/', import.meta.url);

/** Writes `<dir>/circuit-keys` (manifest.json with `dev_only: false` + both vkeys) and returns it. */
export function writeCeremonyKeys(dir: string): string {
  const out = join(dir, 'circuit-keys');
  mkdirSync(out, { recursive: true });
  const files: Record<string, { sha256: string; bytes: number }> = {};
  for (const [name, toy] of [
    ['valid_input.vkey.json', 'verification_key.json'],
    ['valid_spend.vkey.json', 'spend7_verification_key.json'],
  ] as const) {
    const bytes = readFileSync(new URL(toy, TOY));
    writeFileSync(join(out, name), bytes);
    files[name] = { sha256: sha256Hex(bytes), bytes: bytes.length };
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
