/**
 * The engine's settlement key (its TEE key, Ed25519, DESIGN.md section 6), the same at every boot
 * so that the key registered on the ledger survives restarts. In a real CVM (dstack) it is derived
 * through the platform's key API at each boot and never written anywhere (only its public address
 * is, as the mark that a journal was made with it); on the simulated platform it is sealed in the
 * data directory (mode 0600); without a data directory (tests) each process gets a fresh one.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  addressToBase58,
  bytesToHex,
  createSecretFile,
  ed25519PublicKey,
  hexToBytes,
  loadOrCreateSecretFile,
} from '@nightjar/protocol';
import type { AttestationPlatform } from '../attestation/platform.js';

export interface TeeKey {
  seed: Uint8Array;
  /** Base58 public key: the ledger address the engine signs as. */
  address: string;
}

export const TEE_KEY_FILE = 'settlement-key.json';
/** A derived key's public address (never the key): an earlier boot had a key, so a journal exists. */
export const TEE_KEY_ADDRESS_FILE = 'settlement-key.address';
/** The key path the settlement key is derived under on a platform with a key API. */
export const TEE_KEY_PATH = 'settlement-key/v1';

/** This boot's settlement key: derived by a real CVM's key API, else the sealed file. */
export async function loadTeeKey(
  platform: AttestationPlatform,
  dataDir: string | undefined,
): Promise<TeeKey> {
  if (platform.kind !== 'dstack') return loadOrCreateTeeKey(dataDir);
  const key = fromSeed(await platform.deriveKeySeed(TEE_KEY_PATH));
  if (dataDir !== undefined) createSecretFile(join(dataDir, TEE_KEY_ADDRESS_FILE), `${key.address}\n`);
  return key;
}

/** Whether an earlier boot in `dataDir` had a settlement key, and so created a journal. */
export function hadTeeKey(dataDir: string | undefined): boolean {
  return (
    dataDir !== undefined &&
    (existsSync(join(dataDir, TEE_KEY_FILE)) || existsSync(join(dataDir, TEE_KEY_ADDRESS_FILE)))
  );
}

/**
 * The simulated platform's sealed key file (created at first boot, exclusively: a file that is
 * there is never replaced). One another user owns or may read is refused, never registered.
 */
export function loadOrCreateTeeKey(dataDir: string | undefined): TeeKey {
  if (dataDir === undefined) return fromSeed(Uint8Array.from(randomBytes(32)));
  const file = join(dataDir, TEE_KEY_FILE);
  const text = loadOrCreateSecretFile(
    file,
    () => JSON.stringify({ seed: bytesToHex(Uint8Array.from(randomBytes(32))) }) + '\n',
  );
  let saved: { seed?: unknown };
  try {
    saved = JSON.parse(text) as { seed?: unknown };
  } catch {
    saved = {};
  }
  if (typeof saved.seed !== 'string' || !/^[0-9a-f]{64}$/.test(saved.seed))
    throw new Error(`${file} is damaged; refusing to replace the registered settlement key`);
  return fromSeed(hexToBytes(saved.seed));
}

function fromSeed(seed: Uint8Array): TeeKey {
  return { seed, address: addressToBase58(ed25519PublicKey(seed)) };
}
