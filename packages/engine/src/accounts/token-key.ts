/**
 * The bearer tokens' MAC key, kept out of the accounts database (whoever reads a copy of the
 * database must not be able to mint tokens): on a real CVM derived through the platform's key API
 * at each boot and never written; on the simulated platform its own 0600 file in the data
 * directory, created exclusively; without a data directory (tests) fresh for each process.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { hexToBytes, loadOrCreateSecretFile } from '@nightjar/protocol';
import type { AttestationPlatform } from '../attestation/platform.js';

export const TOKEN_KEY_FILE = 'token-key';
/** The key path the token key is derived under on a platform with a key API. */
export const TOKEN_KEY_PATH = 'bearer-token-key/v1';

export async function loadTokenKey(
  platform: Pick<AttestationPlatform, 'kind' | 'deriveKeySeed'>,
  dataDir: string | undefined,
): Promise<Uint8Array> {
  if (platform.kind === 'dstack') return platform.deriveKeySeed(TOKEN_KEY_PATH);
  if (dataDir === undefined) return Uint8Array.from(randomBytes(32));
  const file = join(dataDir, TOKEN_KEY_FILE);
  const hex = loadOrCreateSecretFile(file, () => randomBytes(32).toString('hex') + '\n').trim();
  if (!/^[0-9a-f]{64}$/.test(hex))
    throw new Error(`${file} is damaged; remove it (every issued token stops working) to make a new key`);
  return hexToBytes(hex);
}
