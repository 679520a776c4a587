/**
 * G2 subgroup membership for BN254 on mcl's wasm memory.
 *
 * mcl's own order check (isValidOrder) costs about as much as a Miller loop in wasm. BN254 has a
 * much cheaper exact test (Dai, Lin, Zhao, Zhou, "Fast subgroup membership testings for G1, G2 and
 * GT on pairing-friendly curves", eprint 2022/348, sections 3 and 5.1; also used by gnark-crypto):
 * for Q on the twist E'(Fp2),
 *     Q in G2  <=>  [x0 + 1]Q + psi([x0]Q) + psi^2([x0]Q) == psi^3([2 x0]Q),   x0 = 4965661367192848881,
 * where psi(x, y) = (conj(x)·xi^((p-1)/3), conj(y)·xi^((p-1)/2)), xi = 9 + u, is the
 * untwist-Frobenius-twist endomorphism. It needs one 63-bit scalar multiplication, done here as a
 * fixed width-3 NAF chain of mcl's doublings and additions (62 doublings, 17 additions after 3Q).
 * It must not be a GLV multiplication, which assumes the point is already in G2; mcl's group law
 * itself is exact on the whole twist. `setUpG2SubgroupCheck` (run by `initMcl`) checks the chain against
 * plain double-and-add on a point outside G2 and the whole test against mcl's isValidOrder, and
 * falls back to isValidOrder if anything disagrees.
 */
import mcl from 'mcl-wasm';
import { BASE_FIELD_MODULUS, SCALAR_FIELD_MODULUS } from './proof-format.js';
import { FP2_SIZE, FP_SIZE, G2_SIZE, WasmBlock, copyInHeap, wasm } from './mcl-wasm.js';
import { mulG2DoubleAndAdd, pointsOutsideG2 } from './twist-points.js';
import { wnaf } from './wnaf.js';

const BN_X0 = 4965661367192848881n;
const P = BASE_FIELD_MODULUS;

/** x0 in width-3 NAF: digits in {0, ±1, ±3}, most significant last. */
const X0_DIGITS = wnaf(
  Uint8Array.from({ length: 8 }, (_, i) => Number((BN_X0 >> BigInt(8 * i)) & 0xffn)),
  0,
  8,
  3,
);

// Layout of this module's scratch block: G2 slots, then the psi constants.
const Q = 0; // the point under test, affine
const Q3 = 1; // 3Q, affine
const NEG_Q = 2;
const NEG_Q3 = 3;
const ACC = 4;
const SUM = 5;
const T = 6;
const SLOTS = 7;
const CX = SLOTS * G2_SIZE;
const CY = CX + FP2_SIZE;
const BLOCK_BYTES = CY + FP2_SIZE;

let constants: { cx: mcl.Fp2; cy: mcl.Fp2 } | undefined;
let fastG2Check = false;
const block = new WasmBlock((base) => {
  constants?.cx.copyToMem(base + CX);
  constants?.cy.copyToMem(base + CY);
});

/** Base address of the scratch block (slots, then the psi constants). */
function slots(): number {
  return block.at(BLOCK_BYTES);
}

type BigFp2 = [bigint, bigint];
const modP = (a: bigint): bigint => ((a % P) + P) % P;
function fp2Mul([a, b]: BigFp2, [c, d]: BigFp2): BigFp2 {
  return [modP(a * c - b * d), modP(a * d + b * c)];
}
function fp2Pow(base: BigFp2, e: bigint): BigFp2 {
  let acc: BigFp2 = [1n, 0n];
  let b = base;
  for (let k = e; k > 0n; k >>= 1n) {
    if (k & 1n) acc = fp2Mul(acc, b);
    b = fp2Mul(b, b);
  }
  return acc;
}
function mclFp2([a, b]: BigFp2): mcl.Fp2 {
  const fa = new mcl.Fp();
  fa.setStr(a.toString(16), 16);
  const fb = new mcl.Fp();
  fb.setStr(b.toString(16), 16);
  const out = new mcl.Fp2();
  out.set_a(fa);
  out.set_b(fb);
  return out;
}

/** dst = conj(src) · c for Fp2 values in wasm memory (c = 0 means no multiplication). */
function conjMul(dst: number, src: number, c: number): void {
  const mod = wasm();
  copyInHeap(dst, src, FP_SIZE);
  mod._mclBnFp_neg(dst + FP_SIZE, src + FP_SIZE);
  if (c !== 0) mod._mclBnFp2_mul(dst, dst, c);
}

/** psi on Jacobian coordinates: (conj(X)·cx, conj(Y)·cy, conj(Z)). `dst` may equal `src`. */
function psiAt(base: number, dst: number, src: number): void {
  conjMul(dst, src, base + CX);
  conjMul(dst + FP2_SIZE, src + FP2_SIZE, base + CY);
  conjMul(dst + 2 * FP2_SIZE, src + 2 * FP2_SIZE, 0);
}

/** slot ACC = [x0]·(slot Q), for Q affine on the twist, by the fixed NAF chain. */
function mulByX0(base: number): void {
  const mod = wasm();
  const at = (slot: number): number => base + slot * G2_SIZE;
  // Table of odd multiples: Q, 3Q (made affine so that every addition below is a mixed one).
  mod._mclBnG2_dbl(at(ACC), at(Q));
  mod._mclBnG2_add(at(Q3), at(ACC), at(Q));
  mod._mclBnG2_normalize(at(Q3), at(Q3));
  mod._mclBnG2_neg(at(NEG_Q), at(Q));
  mod._mclBnG2_neg(at(NEG_Q3), at(Q3));
  const digitSlot = (d: number): number => at(d === 1 ? Q : d === 3 ? Q3 : d === -1 ? NEG_Q : NEG_Q3);
  let top = X0_DIGITS.length - 1;
  while (X0_DIGITS[top] === 0) top--;
  copyInHeap(at(ACC), digitSlot(X0_DIGITS[top] as number), G2_SIZE);
  for (let i = top - 1; i >= 0; i--) {
    mod._mclBnG2_dbl(at(ACC), at(ACC));
    const d = X0_DIGITS[i] as number;
    if (d !== 0) mod._mclBnG2_add(at(ACC), at(ACC), digitSlot(d));
  }
}

/**
 * The endomorphism test for the point in slot Q (affine, on the twist, not infinity).
 * [x0]Q is made affine first so that psi keeps Z = 1 and the additions are mixed ones.
 */
function endomorphismCheck(base: number): boolean {
  const mod = wasm();
  const at = (slot: number): number => base + slot * G2_SIZE;
  mulByX0(base);
  // [x0]Q = 0 turns the test into Q == 0, false here (and never the case in G2: r does not divide x0).
  if (mod._mclBnG2_isZero(at(ACC)) === 1) return false;
  mod._mclBnG2_normalize(at(ACC), at(ACC));
  mod._mclBnG2_add(at(SUM), at(ACC), at(Q)); // [x0 + 1]Q
  psiAt(base, at(T), at(ACC));
  mod._mclBnG2_add(at(SUM), at(SUM), at(T)); // + psi([x0]Q)
  psiAt(base, at(T), at(T));
  mod._mclBnG2_add(at(SUM), at(SUM), at(T)); // + psi^2([x0]Q)
  psiAt(base, at(T), at(T));
  mod._mclBnG2_dbl(at(T), at(T)); // psi^3([2 x0]Q)
  return mod._mclBnG2_isEqual(at(SUM), at(T)) === 1;
}

/** Copies `q` into slot Q, affine. False when q is the point at infinity. */
function loadPoint(base: number, q: mcl.G2): boolean {
  const mod = wasm();
  const at = base + Q * G2_SIZE;
  q.copyToMem(at);
  if (mod._mclBnG2_isZero(at) === 1) return false;
  mod._mclBnG2_normalize(at, at);
  return true;
}

/** [x0]q by the chain above (for the self-check). */
function chainMulByX0(q: mcl.G2): mcl.G2 {
  const base = slots();
  const out = new mcl.G2();
  if (!loadPoint(base, q)) return out;
  mulByX0(base);
  out.copyFromMem(base + ACC * G2_SIZE);
  return out;
}

function psiOf(q: mcl.G2): mcl.G2 {
  const base = slots();
  q.copyToMem(base + T * G2_SIZE);
  psiAt(base, base + T * G2_SIZE, base + T * G2_SIZE);
  const out = new mcl.G2();
  out.copyFromMem(base + T * G2_SIZE);
  return out;
}

/**
 * Sets up the endomorphism test and checks it against mcl (once per thread, after mcl.init);
 * false means "use isValidOrder".
 */
export function setUpG2SubgroupCheck(): boolean {
  const xi: BigFp2 = [9n, 1n];
  constants = { cx: mclFp2(fp2Pow(xi, (P - 1n) / 3n)), cy: mclFp2(fp2Pow(xi, (P - 1n) / 2n)) };
  const base = slots();
  constants.cx.copyToMem(base + CX); // the block may predate the constants
  constants.cy.copyToMem(base + CY);
  fastG2Check = false;
  const outside = pointsOutsideG2(2);
  if (outside.length < 2) return false;
  // A torsion point of the cofactor part (order dividing the cofactor), and one in G2 plus it.
  const torsion = mulG2DoubleAndAdd(outside[1] as mcl.G2, SCALAR_FIELD_MODULUS);
  const inside = [mcl.hashAndMapToG2('nightjar-g2-1'), mcl.hashAndMapToG2('nightjar-g2-2')];
  const rP = new mcl.Fr();
  rP.setStr((P % SCALAR_FIELD_MODULUS).toString(16), 16);
  for (const q of [...outside, torsion]) {
    // The chain must be exact outside G2, or the test is meaningless there.
    if (!chainMulByX0(q).isEqual(mulG2DoubleAndAdd(q, BN_X0))) return false;
    if (q.isZero() || q.isValidOrder() || checkAt(q)) return false;
  }
  for (const q of inside) {
    if (!q.isValidOrder() || !checkAt(q) || checkAt(mcl.add(q, torsion))) return false;
    // psi acts on G2 as multiplication by p (mod r).
    if (!psiOf(q).isEqual(mcl.mul(q, rP))) return false;
  }
  fastG2Check = true;
  return true;
}

function checkAt(q: mcl.G2): boolean {
  const base = slots();
  if (!loadPoint(base, q)) return true;
  return endomorphismCheck(base);
}

/** Which G2 subgroup test is in use in this thread (after `initMcl`). */
export function g2SubgroupCheckMethod(): 'endomorphism' | 'mcl-isValidOrder' {
  return fastG2Check ? 'endomorphism' : 'mcl-isValidOrder';
}

/**
 * True when `q` (a point on the twist, not checked here) is in the order-r subgroup G2. Uses the
 * endomorphism test when it passed its self-check at init, else mcl's isValidOrder.
 */
export function isInG2Subgroup(q: mcl.G2): boolean {
  if (q.isZero()) return true;
  if (fastG2Check) return checkAt(q);
  return q.isValidOrder();
}
