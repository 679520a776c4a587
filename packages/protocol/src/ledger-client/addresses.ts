/** Program-derived addresses: deterministic 32-byte accounts named by a seed, Base58-encoded. */
import { createHash } from 'node:crypto';
import { addressToBase58 } from '../index.js';

export function deriveAddress(...seeds: string[]): string {
  const h = createHash('sha256').update('nightjar-pda');
  for (const seed of seeds) h.update('\u0000').update(seed, 'utf8');
  return addressToBase58(h.digest());
}

/** The vault's token account: holds every deposited token. */
export const VAULT_ADDRESS = deriveAddress('vault');

export function marketAddress(symbol: string): string {
  return deriveAddress('market', symbol);
}

export function mintAddress(label: string): string {
  return deriveAddress('mint', label);
}

/** SHA-256 of the ordered 32-byte TEE keys (DESIGN.md section 8). */
export function signerSetSha256(keys: Uint8Array[]): string {
  const h = createHash('sha256');
  for (const k of keys) h.update(k);
  return h.digest('hex');
}
