/**
 * The instructions the Montgomery code generator (montgomery-wat.ts) emits, in two flavours:
 * scalar (i64: one field operation) and two-lane SIMD (v128: two independent field operations at
 * once). Measured in V8 on x64, one two-lane Montgomery multiplication costs about 0.75 of two
 * scalar ones: i64x2.extmul_low_i32x4_u runs on the vector units, beside the scalar multiplier
 * that bounds the scalar code.
 *
 * A "limb" value is a multiplication operand: an i64 below 2^30 (scalar) or an i32x4 with the two
 * lanes' limbs in lanes 0 and 1. An "accumulator" value is an i64, or an i64x2 with one lane each.
 */
import { MASK, P_LIMBS, PINV, W } from './limbs.js';

/**
 * BN254's r is 1 + 2^28 mod 2^29 (its 2-adicity is 28), so p_0 = 2^28 + 1 and -p^-1 mod 2^29 is
 * 2^28 - 1: both multiplications on the serial q path become a shift and an add or subtract.
 */
const SHIFT = 28n;
if (P_LIMBS[0] !== (1n << SHIFT) + 1n || PINV !== (1n << SHIFT) - 1n) {
  throw new Error('lanes: p_0 is not 2^28 + 1; the q shortcuts below do not apply');
}

export interface Lanes {
  /** Local type of both limb and accumulator values. */
  readonly type: 'i64' | 'v128';
  /** Number of independent field operations (1 or 2). */
  readonly width: 1 | 2;
  add(a: string, b: string): string;
  sub(a: string, b: string): string;
  /** limb × limb → accumulator. */
  mul(a: string, b: string): string;
  /** limb + limb → limb (Karatsuba block sums; below 2^30). */
  limbAdd(a: string, b: string): string;
  shr(a: string): string;
  shl1(a: string): string;
  mask(a: string): string;
  /** p's limb k as a limb value. */
  pLimb(k: number): string;
  /** q = acc · PINV mod 2^29, as an accumulator value. */
  q(acc: string): string;
  /** q · p_0 for an accumulator-typed q (below 2^29). */
  timesP0(q: string): string;
  /** An accumulator below 2^29 per lane as a limb value. */
  toLimb(acc: string): string;
  /** A limb value as an accumulator. */
  toAcc(limb: string): string;
}

const i64 = (v: bigint): string => `(i64.const ${v})`;

export const SCALAR: Lanes = {
  type: 'i64',
  width: 1,
  add: (a, b) => `(i64.add ${a} ${b})`,
  sub: (a, b) => `(i64.sub ${a} ${b})`,
  mul: (a, b) => `(i64.mul ${a} ${b})`,
  limbAdd: (a, b) => `(i64.add ${a} ${b})`,
  shr: (a) => `(i64.shr_u ${a} ${i64(W)})`,
  shl1: (a) => `(i64.shl ${a} ${i64(1n)})`,
  mask: (a) => `(i64.and ${a} ${i64(MASK)})`,
  pLimb: (k) => i64(P_LIMBS[k]!),
  q: (acc) => `(i64.and (i64.sub (i64.shl ${acc} ${i64(SHIFT)}) ${acc}) ${i64(MASK)})`,
  timesP0: (q) => `(i64.add (i64.shl ${q} ${i64(SHIFT)}) ${q})`,
  toLimb: (acc) => acc,
  toAcc: (limb) => limb,
};

/** i32 lanes 0 and 2 (the low halves of the two i64 lanes) to lanes 0 and 1. */
const gather = (v: string): string => `(i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 ${v} ${v})`;
const mask64 = `(v128.const i64x2 ${MASK} ${MASK})`;

export const PAIR: Lanes = {
  type: 'v128',
  width: 2,
  add: (a, b) => `(i64x2.add ${a} ${b})`,
  sub: (a, b) => `(i64x2.sub ${a} ${b})`,
  mul: (a, b) => `(i64x2.extmul_low_i32x4_u ${a} ${b})`,
  limbAdd: (a, b) => `(i32x4.add ${a} ${b})`,
  shr: (a) => `(i64x2.shr_u ${a} (i32.const ${W}))`,
  shl1: (a) => `(i64x2.shl ${a} (i32.const 1))`,
  mask: (a) => `(v128.and ${a} ${mask64})`,
  pLimb: (k) => `(v128.const i32x4 ${P_LIMBS[k]} ${P_LIMBS[k]} 0 0)`,
  q: (acc) => `(v128.and (i64x2.sub (i64x2.shl ${acc} (i32.const ${SHIFT})) ${acc}) ${mask64})`,
  timesP0: (q) => `(i64x2.add (i64x2.shl ${q} (i32.const ${SHIFT})) ${q})`,
  toLimb: (acc) => gather(acc),
  toAcc: (limb) => `(i64x2.extend_low_i32x4_u ${limb})`,
};
