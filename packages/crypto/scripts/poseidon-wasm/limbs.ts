/**
 * The limb representation shared by the generated field code: BN254's scalar field in Montgomery
 * form with 9 limbs of 29 bits (R = 2^261), each limb stored as a little-endian u32, so an element
 * is 36 bytes of linear memory.
 *
 * Why 29 bits: a product of two limbs is below 2^58, so 64 of them add up in an i64 without a
 * carry. Each column of a product is summed first and carried once, instead of a carry per partial
 * product as 32-bit limbs need; WebAssembly has no 64×64→128 multiply to make 64-bit limbs pay.
 */
import { FIELD_MODULUS as P } from '@nightjar/protocol';

export const LIMB_BITS = 29;
export const LIMBS = 9;
export const ELEMENT_BYTES = 4 * LIMBS;
export const MONTGOMERY_R = 1n << BigInt(LIMB_BITS * LIMBS);
/** Columns of the product of two elements. */
export const COLUMNS = 2 * LIMBS - 1;

export const W = BigInt(LIMB_BITS);
export const MASK = (1n << W) - 1n;
export const U64_MAX = (1n << 64n) - 1n;

function modInverse(a: bigint, m: bigint): bigint {
  // Extended Euclid; a and m are coprime here (p is odd, m a power of two).
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

/** Little-endian 29-bit limbs of 0 <= x < 2^261. */
export function toLimbs(x: bigint): bigint[] {
  if (x < 0n || x >= MONTGOMERY_R) throw new RangeError('limbs: value out of limb range');
  return Array.from({ length: LIMBS }, (_, i) => (x >> (W * BigInt(i))) & MASK);
}

export const P_LIMBS = toLimbs(P);
/** -p^-1 mod 2^29: q = acc · PINV makes acc + q·p divisible by 2^29. */
export const PINV = (1n << W) - modInverse(P, 1n << W);

/** The 36 bytes of an element as stored in memory (limbs as little-endian u32). */
export function elementBytes(x: bigint): Uint8Array {
  const out = new Uint8Array(ELEMENT_BYTES);
  const view = new DataView(out.buffer);
  toLimbs(x).forEach((limb, i) => view.setUint32(4 * i, Number(limb), true));
  return out;
}

/** Upper bound of a Montgomery result: (Σ products + (R - 1) p) / R + z. */
export const montgomeryBound = (products: bigint, z = 0n): bigint =>
  (products + (MONTGOMERY_R - 1n) * P) / MONTGOMERY_R + z;
