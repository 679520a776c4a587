/** Deterministic test data: SHA-256 in counter mode over a seed label. */
import { createHash } from 'node:crypto';
import { FIELD_MODULUS } from '@nightjar/protocol';

export function seededBytes(seed: string, index: number, length = 32): Uint8Array {
  const out = new Uint8Array(length);
  for (let block = 0; block * 32 < length; block++) {
    const digest = createHash('sha256').update(`${seed}/${index}/${block}`).digest();
    out.set(digest.subarray(0, Math.min(32, length - block * 32)), block * 32);
  }
  return out;
}

/** Field elements below r derived from `seed` (reduced mod r; the bias is irrelevant for tests). */
export function seededFieldElements(seed: string, count: number): bigint[] {
  return Array.from(
    { length: count },
    (_, i) => BigInt('0x' + Buffer.from(seededBytes(seed, i)).toString('hex')) % FIELD_MODULUS,
  );
}
