/**
 * BENCH ONLY: a frozen copy of src/groth16/mcl-verifier.ts as of commit 87f6e0f (before the batch
 * speed-ups), so that bench/groth16-breakdown.ts can measure the old and the new batch path side by
 * side in one run. Changes to the copy: import paths; mcl itself is initialised by the current
 * `initMcl` (re-initialising mcl would drop the current module's wasm memory) and the old G2 check
 * is set up by `initBefore`; `batchBreakdown`, the old valid-batch path step by step for timing.
 * Not used by the library; do not import it from src.
 */
/**
 * Groth16 verification over BN254 on mcl-wasm (curve BN_SNARK1, the curve of snarkjs/circom and
 * of the EIP-196/197 precompiles).
 *
 * Single proof: e(A, B) == e(alpha, beta) · e(vk_x, gamma) · e(C, delta), evaluated as one product
 * of Miller loops, ML(-A, B) · ML(vk_x, gamma) · ML(C, delta) · ML(alpha, beta), where the last
 * factor is precomputed per key, followed by ONE final exponentiation and a comparison with 1.
 *
 * Batch of n proofs (random linear combination, fresh 128-bit r_i from the OS CSPRNG):
 *   ∏ e(r_i·A_i, B_i) == e(alpha, beta)^{Σ r_i} · e(Σ r_i·vk_x_i, gamma) · e(Σ r_i·C_i, delta)
 * computed as one multi-Miller loop over n + 2 pairs and ONE final exponentiation; e(alpha, beta)
 * is precomputed in GT, and Σ r_i·vk_x_i is one MSM over the key's IC points:
 *   (Σ r_i)·IC_0 + Σ_j (Σ_i r_i·x_ij)·IC_j.
 * A batch that fails is bisected (reusing the same r_i, which were drawn after the proofs were
 * fixed) so that exactly the bad proofs are reported and one forgery never rejects good proofs.
 *
 * Point checks: every coordinate < p (else invalid), A, B, C not the point at infinity, A and C on
 * the curve (G1 of BN254 has cofactor 1, so on-curve means in the group; mcl's G1 order check is
 * therefore not enabled), B on the twist AND in the order-r subgroup (a fast endomorphism test,
 * self-checked against mcl's isValidOrder at init, see below; mcl's verifyOrderG2 is also on for
 * key parsing). Public inputs must be < r. Any of these failing makes the proof invalid (false), never an exception.
 * Only shape errors (proof not 256 bytes, wrong number of public inputs) throw typed errors.
 *
 * mcl keeps one global instance per thread: call `initMcl()` (or `Groth16Verifier.create`, which
 * does) once per thread; do not re-initialise mcl on another curve in the same thread.
 */
import { randomBytes } from 'node:crypto';
import mcl from 'mcl-wasm';
import { initMcl as initCurrentMcl } from '../../src/groth16/mcl-verifier.js';
import { PublicInputError, VerificationKeyError } from '../../src/groth16/errors.js';
import {
  BASE_FIELD_MODULUS,
  FIELD_ELEMENT_BYTES,
  SCALAR_FIELD_MODULUS,
  assertProofLength,
  assertPublicInputLength,
  firstOutOfRangeCoordinate,
  firstOutOfRangePublicInput,
  parseVerificationKey,
  type G1Point,
  type G2Point,
  type SnarkjsVerificationKey,
  type VerificationKey,
} from '../../src/groth16/proof-format.js';

// ---------------------------------------------------------------------------------------------
// mcl initialisation and low-level helpers

let initPromise: Promise<void> | undefined;

/** Initialises mcl (through the current module) and the old G2 check, once. */
export function initBefore(): Promise<void> {
  if (initPromise === undefined) {
    initPromise = (async () => {
      await initCurrentMcl();
      mcl.verifyOrderG2(true);
      fastG2Check = setUpFastG2Check();
    })();
  }
  return initPromise;
}

/** The parts of mcl's wasm module used for the multi-Miller loop (not in mcl-wasm's typings). */
interface McLWasmModule {
  stackSave(): number;
  stackAlloc(bytes: number): number;
  stackRestore(sp: number): void;
  _mclBn_millerLoopVec?: (z: number, x: number, y: number, n: number) => void;
}

// Sizes of mcl's in-memory representations for a 256-bit field build (MCLBN_FP_UNIT_SIZE = 6 → 48-byte Fp).
const FP_SIZE = 48;
const G1_SIZE = FP_SIZE * 3;
const G2_SIZE = FP_SIZE * 6;
const GT_SIZE = FP_SIZE * 12;

function wasmModule(): McLWasmModule {
  return (mcl as unknown as { mod: McLWasmModule }).mod;
}

/**
 * ∏ ML(P_i, Q_i) with mcl's multi-Miller loop (shared squarings), or a product of single Miller
 * loops when the wasm build does not export it.
 */
function millerLoopProduct(ps: readonly mcl.G1[], qs: readonly mcl.G2[]): mcl.GT {
  const n = ps.length;
  if (n === 0 || n !== qs.length) throw new RangeError('millerLoopProduct: bad lengths');
  const mod = wasmModule();
  const vec = mod._mclBn_millerLoopVec;
  if (vec === undefined) {
    let f = mcl.millerLoop(ps[0] as mcl.G1, qs[0] as mcl.G2);
    for (let i = 1; i < n; i++) f = mcl.mul(f, mcl.millerLoop(ps[i] as mcl.G1, qs[i] as mcl.G2));
    return f;
  }
  const sp = mod.stackSave();
  try {
    const pPos = mod.stackAlloc(n * G1_SIZE);
    const qPos = mod.stackAlloc(n * G2_SIZE);
    const zPos = mod.stackAlloc(GT_SIZE);
    for (let i = 0; i < n; i++) {
      (ps[i] as mcl.G1).copyToMem(pPos + i * G1_SIZE);
      (qs[i] as mcl.G2).copyToMem(qPos + i * G2_SIZE);
    }
    vec.call(undefined, zPos, pPos, qPos, n);
    const z = new mcl.GT();
    z.copyFromMem(zPos);
    return z;
  } finally {
    mod.stackRestore(sp);
  }
}

function fpFromBE(bytes: Uint8Array, offset: number): mcl.Fp {
  const f = new mcl.Fp();
  // The caller has checked the value is < p, so no reduction happens.
  f.setBigEndianMod(bytes.subarray(offset, offset + 32));
  return f;
}

function frFromBigInt(v: bigint): mcl.Fr {
  const f = new mcl.Fr();
  f.setStr(v.toString(16), 16);
  return f;
}

let fpOne: mcl.Fp | undefined;
let fp2One: mcl.Fp2 | undefined;

function ones(): { fp: mcl.Fp; fp2: mcl.Fp2 } {
  if (fpOne === undefined || fp2One === undefined) {
    fpOne = new mcl.Fp();
    fpOne.setInt(1);
    fp2One = new mcl.Fp2();
    fp2One.setInt(1, 0);
  }
  return { fp: fpOne, fp2: fp2One };
}

function allZero(bytes: Uint8Array, offset: number, length: number): boolean {
  for (let i = offset; i < offset + length; i++) if (bytes[i] !== 0) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// G2 subgroup membership
//
// mcl's own order check (isValidOrder) costs about as much as a Miller loop in wasm. BN254 has a
// much cheaper exact test (Dai, Lin, Zhao, Zhou, "Fast subgroup membership testings for G1, G2 and
// GT on pairing-friendly curves", eprint 2022/348, sections 3 and 5.1; also used by gnark-crypto):
// for Q on the twist E'(Fp2),
//     Q in G2  <=>  [x0 + 1]Q + psi([x0]Q) + psi^2([x0]Q) == psi^3([2 x0]Q),   x0 = 4965661367192848881,
// where psi(x, y) = (conj(x)·xi^((p-1)/3), conj(y)·xi^((p-1)/2)), xi = 9 + u, is the
// untwist-Frobenius-twist endomorphism. It needs one 63-bit scalar multiplication. That
// multiplication must be plain double-and-add (a GLV multiplication assumes the point is already in
// G2): mcl multiplies scalars below 2^64 that way. `initMcl` checks this on a point outside G2 and on
// points in G2, and falls back to mcl's isValidOrder if anything disagrees.

const BN_X0 = 4965661367192848881n;
const P = BASE_FIELD_MODULUS;

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

interface PsiConstants {
  cx: mcl.Fp2;
  cy: mcl.Fp2;
  x0: mcl.Fr;
}

let psiConstants: PsiConstants | undefined;
let fastG2Check = false;

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

function conj(v: mcl.Fp2): mcl.Fp2 {
  const out = new mcl.Fp2();
  out.set_a(v.get_a());
  out.set_b(mcl.neg(v.get_b()));
  return out;
}

/** psi on Jacobian coordinates: (conj(X)·cx, conj(Y)·cy, conj(Z)). */
function psi(q: mcl.G2, k: PsiConstants): mcl.G2 {
  const out = new mcl.G2();
  out.setX(mcl.mul(conj(q.getX()), k.cx));
  out.setY(mcl.mul(conj(q.getY()), k.cy));
  out.setZ(conj(q.getZ()));
  return out;
}

/** The endomorphism test above, for a point already known to be on the twist. */
function endomorphismG2Check(q: mcl.G2, k: PsiConstants): boolean {
  const xq = mcl.mul(q, k.x0); // 63-bit scalar: mcl's generic (non-GLV) multiplication
  const p1 = psi(xq, k);
  const p2 = psi(p1, k);
  const lhs = mcl.add(mcl.add(mcl.add(xq, q), p1), p2);
  return lhs.isEqual(mcl.dbl(psi(p2, k)));
}

/** [k]q by plain double-and-add with mcl's group law (correct for any point on the curve). */
function mulByDoubleAndAdd(q: mcl.G2, k: bigint): mcl.G2 {
  let acc = new mcl.G2();
  for (let i = k.toString(2).length - 1; i >= 0; i--) {
    acc = mcl.dbl(acc);
    if ((k >> BigInt(i)) & 1n) acc = mcl.add(acc, q);
  }
  return acc;
}

/** A point on the twist outside G2: x = i + u for the first i with x^3 + b' a square. */
function pointOutsideG2(): mcl.G2 | undefined {
  const three = new mcl.Fp2();
  three.setInt(3, 0);
  const xi = new mcl.Fp2();
  xi.setInt(9, 1);
  const twistB = mcl.div(three, xi);
  for (let i = 1; i < 100; i++) {
    const x = new mcl.Fp2();
    x.setInt(i, 1);
    const [ok, y] = mcl.squareRoot(mcl.add(mcl.mul(mcl.sqr(x), x), twistB));
    if (!ok) continue;
    const g = new mcl.G2();
    g.setX(x);
    g.setY(y);
    g.setZ(ones().fp2);
    if (!g.isValidOrder()) return g;
  }
  return undefined;
}

/** Sets up the endomorphism test and checks it against mcl; false means "use isValidOrder". */
function setUpFastG2Check(): boolean {
  const xi: BigFp2 = [9n, 1n];
  const k: PsiConstants = {
    cx: mclFp2(fp2Pow(xi, (P - 1n) / 3n)),
    cy: mclFp2(fp2Pow(xi, (P - 1n) / 2n)),
    x0: frFromBigInt(BN_X0),
  };
  const outside = pointOutsideG2();
  if (outside === undefined) return false;
  // mcl must multiply by x0 without GLV, or the test is meaningless outside G2.
  if (!mcl.mul(outside, k.x0).isEqual(mulByDoubleAndAdd(outside, BN_X0))) return false;
  if (endomorphismG2Check(outside, k)) return false;
  const inside = [mcl.hashAndMapToG2('nightjar-g2-1'), mcl.hashAndMapToG2('nightjar-g2-2')];
  for (const q of inside) {
    if (!q.isValidOrder() || !endomorphismG2Check(q, k)) return false;
    // psi acts on G2 as multiplication by p (mod r).
    if (!psi(q, k).isEqual(mcl.mul(q, frFromBigInt(P % SCALAR_FIELD_MODULUS)))) return false;
  }
  psiConstants = k;
  return true;
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
  if (fastG2Check && psiConstants !== undefined) return endomorphismG2Check(q, psiConstants);
  return q.isValidOrder();
}

/** Result of checking the three points of a proof. Anything but 'ok' makes the proof invalid. */
export type ProofPointStatus =
  | 'ok'
  | 'coordinate-out-of-range'
  | 'a-infinity'
  | 'b-infinity'
  | 'c-infinity'
  | 'a-not-on-curve'
  | 'b-not-on-curve'
  | 'b-not-in-subgroup'
  | 'c-not-on-curve';

interface ParsedProof {
  a: mcl.G1;
  b: mcl.G2;
  c: mcl.G1;
}

/** G1 point from 64 bytes (x ‖ y), already range-checked. Undefined when infinity or off-curve. */
function g1FromBytes(bytes: Uint8Array, offset: number): mcl.G1 | 'infinity' | 'not-on-curve' {
  if (allZero(bytes, offset, 64)) return 'infinity';
  const g = new mcl.G1();
  g.setX(fpFromBE(bytes, offset));
  g.setY(fpFromBE(bytes, offset + 32));
  g.setZ(ones().fp);
  return g.isValid() ? g : 'not-on-curve';
}

/** G2 point from 128 bytes (x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0), already range-checked. */
function g2FromBytes(
  bytes: Uint8Array,
  offset: number,
): mcl.G2 | 'infinity' | 'not-on-curve' | 'not-in-subgroup' {
  if (allZero(bytes, offset, 128)) return 'infinity';
  const x = new mcl.Fp2();
  x.set_b(fpFromBE(bytes, offset));
  x.set_a(fpFromBE(bytes, offset + 32));
  const y = new mcl.Fp2();
  y.set_b(fpFromBE(bytes, offset + 64));
  y.set_a(fpFromBE(bytes, offset + 96));
  const g = new mcl.G2();
  g.setX(x);
  g.setY(y);
  g.setZ(ones().fp2);
  // With verifyOrderG2 off, isValid() is the on-curve test alone; then check the subgroup.
  mcl.verifyOrderG2(false);
  const onCurve = g.isValid();
  mcl.verifyOrderG2(true);
  if (!onCurve) return 'not-on-curve';
  return isInG2Subgroup(g) ? g : 'not-in-subgroup';
}

function parseProofPoints(proof: Uint8Array): ParsedProof | Exclude<ProofPointStatus, 'ok'> {
  if (firstOutOfRangeCoordinate(proof) >= 0) return 'coordinate-out-of-range';
  const a = g1FromBytes(proof, 0);
  if (a === 'infinity') return 'a-infinity';
  if (a === 'not-on-curve') return 'a-not-on-curve';
  const c = g1FromBytes(proof, 192);
  if (c === 'infinity') return 'c-infinity';
  if (c === 'not-on-curve') return 'c-not-on-curve';
  const b = g2FromBytes(proof, 64);
  if (b === 'infinity') return 'b-infinity';
  if (b === 'not-on-curve') return 'b-not-on-curve';
  if (b === 'not-in-subgroup') return 'b-not-in-subgroup';
  return { a, b, c };
}

/**
 * Checks the points of a 256-byte proof (ranges, infinity, curve and subgroup membership) without
 * verifying it. Requires `await initMcl()` first. Throws only when the length is not 256.
 */
export function checkProofPoints(proof: Uint8Array): ProofPointStatus {
  assertProofLength(proof);
  const parsed = parseProofPoints(proof);
  return typeof parsed === 'string' ? parsed : 'ok';
}

function g1FromAffine(p: G1Point, what: string): mcl.G1 {
  const g = new mcl.G1();
  if (p.x === 0n && p.y === 0n) return g; // infinity (allowed for IC points only)
  try {
    g.setStr(`1 ${p.x.toString(16)} ${p.y.toString(16)}`, 16);
  } catch {
    throw new VerificationKeyError(
      'GROTH16_INVALID_VERIFICATION_KEY',
      `verification key: ${what} is not on G1`,
    );
  }
  return g;
}

function g2FromAffine(p: G2Point, what: string): mcl.G2 {
  const g = new mcl.G2();
  try {
    // mcl's Fp2 string order is a (= c0) then b (= c1); setStr checks the curve and, with
    // verifyOrderG2 on, the subgroup.
    g.setStr(
      `1 ${p.x.c0.toString(16)} ${p.x.c1.toString(16)} ${p.y.c0.toString(16)} ${p.y.c1.toString(16)}`,
      16,
    );
  } catch {
    throw new VerificationKeyError(
      'GROTH16_INVALID_VERIFICATION_KEY',
      `verification key: ${what} is not in G2`,
    );
  }
  if (!g.isValidOrder()) {
    throw new VerificationKeyError(
      'GROTH16_INVALID_VERIFICATION_KEY',
      `verification key: ${what} is not in G2`,
    );
  }
  return g;
}

// ---------------------------------------------------------------------------------------------
// the verifier

/** One proof to verify: the 256-byte proof and its public inputs (bytes or field elements). */
export interface ProofItem {
  proof: Uint8Array;
  publicInputs: Uint8Array | readonly bigint[];
}

/** Options of `Groth16Verifier.verifyBatch`. */
export interface BatchOptions {
  /**
   * Source of the random 128-bit coefficients: must return `n` cryptographically secure random
   * bytes. Defaults to node:crypto randomBytes. Exists for tests only.
   */
  randomBytes?: (n: number) => Uint8Array;
}

const R = SCALAR_FIELD_MODULUS;

function bytesToHexBigInt(bytes: Uint8Array, offset: number, length: number): bigint {
  return BigInt('0x' + Buffer.from(bytes.buffer, bytes.byteOffset + offset, length).toString('hex'));
}

interface BatchEntry {
  index: number;
  parsed: ParsedProof;
  inputs: bigint[];
}

/**
 * A Groth16 verifier for one verification key. Create with `await Groth16Verifier.create(vk)`.
 * Synchronous after creation; one instance per thread (mcl is per thread).
 */
export class Groth16Verifier {
  readonly nPublic: number;
  readonly key: VerificationKey;
  private readonly ic: mcl.G1[];
  private readonly gamma: mcl.G2;
  private readonly delta: mcl.G2;
  /** Miller loop of (alpha, beta), before the final exponentiation. */
  private readonly mlAlphaBeta: mcl.GT;
  /** e(alpha, beta). */
  private readonly eAlphaBeta: mcl.GT;

  private constructor(vk: VerificationKey) {
    this.key = vk;
    this.nPublic = vk.nPublic;
    const alpha = g1FromAffine(vk.alpha, 'alpha');
    const beta = g2FromAffine(vk.beta, 'beta');
    this.gamma = g2FromAffine(vk.gamma, 'gamma');
    this.delta = g2FromAffine(vk.delta, 'delta');
    this.ic = vk.ic.map((p, i) => g1FromAffine(p, `IC[${i}]`));
    this.mlAlphaBeta = mcl.millerLoop(alpha, beta);
    this.eAlphaBeta = mcl.finalExp(this.mlAlphaBeta);
  }

  /** Initialises mcl (once per thread) and prepares the key: a parsed key or snarkjs JSON. */
  static async create(vk: VerificationKey | SnarkjsVerificationKey): Promise<Groth16Verifier> {
    await initBefore();
    return new Groth16Verifier(isVerificationKey(vk) ? vk : parseVerificationKey(vk));
  }

  /** Public inputs as field elements, or undefined when one is not below r. Throws on shape. */
  private inputsOf(publicInputs: Uint8Array | readonly bigint[]): bigint[] | undefined {
    if (publicInputs instanceof Uint8Array) {
      assertPublicInputLength(publicInputs, this.nPublic);
      if (firstOutOfRangePublicInput(publicInputs) >= 0) return undefined;
      const out: bigint[] = [];
      for (let j = 0; j < this.nPublic; j++) {
        out.push(bytesToHexBigInt(publicInputs, j * FIELD_ELEMENT_BYTES, FIELD_ELEMENT_BYTES));
      }
      return out;
    }
    if (!Array.isArray(publicInputs) || publicInputs.length !== this.nPublic) {
      throw new PublicInputError(
        'GROTH16_PUBLIC_INPUT_LENGTH',
        `expected ${this.nPublic} public inputs, got ${Array.isArray(publicInputs) ? publicInputs.length : typeof publicInputs}`,
      );
    }
    for (const v of publicInputs) if (typeof v !== 'bigint' || v < 0n || v >= R) return undefined;
    return [...publicInputs];
  }

  /** Σ_j s_j·IC_j for scalars s (s_0 for IC_0) as one MSM. */
  private icMsm(scalars: bigint[]): mcl.G1 {
    return mcl.mulVec(this.ic, scalars.map(frFromBigInt));
  }

  private verifyParsed(p: ParsedProof, inputs: bigint[]): boolean {
    const vkx = this.icMsm([1n, ...inputs]);
    const f = mcl.mul(
      millerLoopProduct([mcl.neg(p.a), vkx, p.c], [p.b, this.gamma, this.delta]),
      this.mlAlphaBeta,
    );
    return mcl.finalExp(f).isOne();
  }

  /**
   * Verifies one proof. Returns false for any invalid proof (bad coordinates, points off the curve
   * or outside the subgroup, infinity, public input >= r, failed pairing check). Throws typed
   * errors only for shape errors: proof not 256 bytes, wrong number of public inputs.
   */
  verify(proof: Uint8Array, publicInputs: Uint8Array | readonly bigint[]): boolean {
    assertProofLength(proof);
    const inputs = this.inputsOf(publicInputs);
    if (inputs === undefined) return false;
    const parsed = parseProofPoints(proof);
    if (typeof parsed === 'string') return false;
    return this.verifyParsed(parsed, inputs);
  }

  /**
   * Verifies many proofs with one random linear combination (n + 2 Miller loops, one final
   * exponentiation); on failure, bisects to find exactly the invalid ones. Returns one boolean per
   * item, in order. Shape errors throw (see `verify`).
   */
  verifyBatch(items: readonly ProofItem[], options: BatchOptions = {}): boolean[] {
    const results = new Array<boolean>(items.length).fill(false);
    const entries: BatchEntry[] = [];
    items.forEach((item, index) => {
      assertProofLength(item.proof);
      const inputs = this.inputsOf(item.publicInputs);
      if (inputs === undefined) return;
      const parsed = parseProofPoints(item.proof);
      if (typeof parsed === 'string') return;
      entries.push({ index, parsed, inputs });
    });
    if (entries.length === 0) return results;
    if (entries.length === 1) {
      const e = entries[0] as BatchEntry;
      results[e.index] = this.verifyParsed(e.parsed, e.inputs);
      return results;
    }

    const rand = (options.randomBytes ?? randomBytes)(16 * entries.length);
    if (rand.length < 16 * entries.length) throw new RangeError('randomBytes returned too few bytes');
    const r: bigint[] = [];
    const rFr: mcl.Fr[] = [];
    const rA: mcl.G1[] = [];
    entries.forEach((e, i) => {
      let ri = bytesToHexBigInt(rand, i * 16, 16);
      if (ri === 0n) ri = 1n; // probability 2^-128; keeps every coefficient non-zero
      r.push(ri);
      const f = frFromBigInt(ri);
      rFr.push(f);
      rA.push(mcl.mul(e.parsed.a, f));
    });
    // The multi-Miller loop wants affine G1 points; normalising them all at once (one inversion)
    // is much cheaper than letting it normalise each point.
    mcl.normalizeVec(rA);

    const check = (subset: number[]): boolean => {
      let sumR = 0n;
      const coeffs = new Array<bigint>(this.nPublic).fill(0n);
      for (const k of subset) {
        const rk = r[k] as bigint;
        sumR += rk;
        const inputs = (entries[k] as BatchEntry).inputs;
        for (let j = 0; j < this.nPublic; j++) coeffs[j] = (coeffs[j] as bigint) + rk * (inputs[j] as bigint);
      }
      sumR %= R;
      const vkSum = this.icMsm([sumR, ...coeffs.map((c) => c % R)]);
      const cSum = mcl.mulVec(
        subset.map((k) => (entries[k] as BatchEntry).parsed.c),
        subset.map((k) => rFr[k] as mcl.Fr),
      );
      const ps = subset.map((k) => rA[k] as mcl.G1);
      const qs = subset.map((k) => (entries[k] as BatchEntry).parsed.b);
      const extra = [mcl.neg(vkSum), mcl.neg(cSum)];
      mcl.normalizeVec(extra);
      ps.push(...extra);
      qs.push(this.gamma, this.delta);
      const lhs = mcl.finalExp(millerLoopProduct(ps, qs));
      const rhs = mcl.pow(this.eAlphaBeta, frFromBigInt(sumR));
      return lhs.isEqual(rhs);
    };

    // Bisection. `knownBad`: the caller already saw this subset fail, so skip re-checking it.
    // Completeness is exact (a subset of valid proofs always passes), so a failing singleton is
    // invalid; a singleton not known to fail is verified on its own.
    const resolve = (subset: number[], knownBad: boolean): boolean => {
      if (subset.length === 1) {
        const k = subset[0] as number;
        const e = entries[k] as BatchEntry;
        const ok = knownBad ? false : this.verifyParsed(e.parsed, e.inputs);
        results[e.index] = ok;
        return ok;
      }
      if (!knownBad && check(subset)) {
        for (const k of subset) results[(entries[k] as BatchEntry).index] = true;
        return true;
      }
      const mid = subset.length >> 1;
      const leftOk = resolve(subset.slice(0, mid), false);
      // The whole subset failed; if the left half is clean, the right half must hold a bad proof.
      resolve(subset.slice(mid), leftOk);
      return false;
    };
    resolve(
      entries.map((_, i) => i),
      false,
    );
    return results;
  }

  /**
   * BENCH ONLY: the path `verifyBatch` takes for a batch of valid proofs, the same operations in the
   * same order, with `mark(step)` called after each step so that the caller can time it. Throws if a
   * proof is not valid (the bench only feeds valid ones).
   */
  batchBreakdown(items: readonly ProofItem[], mark: (step: string) => void): boolean {
    const inputs = items.map((item) => {
      assertProofLength(item.proof);
      const v = this.inputsOf(item.publicInputs);
      if (v === undefined) throw new Error('bench: public input out of range');
      return v;
    });
    mark('public inputs');
    for (const item of items) {
      if (firstOutOfRangeCoordinate(item.proof) >= 0) throw new Error('bench: coordinate out of range');
    }
    mark('coordinate range');
    const points = items.map(({ proof }) => {
      if (allZero(proof, 0, 64) || allZero(proof, 64, 128) || allZero(proof, 192, 64)) {
        throw new Error('bench: infinity');
      }
      const a = new mcl.G1();
      a.setX(fpFromBE(proof, 0));
      a.setY(fpFromBE(proof, 32));
      a.setZ(ones().fp);
      const c = new mcl.G1();
      c.setX(fpFromBE(proof, 192));
      c.setY(fpFromBE(proof, 224));
      c.setZ(ones().fp);
      const x = new mcl.Fp2();
      x.set_b(fpFromBE(proof, 64));
      x.set_a(fpFromBE(proof, 96));
      const y = new mcl.Fp2();
      y.set_b(fpFromBE(proof, 128));
      y.set_a(fpFromBE(proof, 160));
      const b = new mcl.G2();
      b.setX(x);
      b.setY(y);
      b.setZ(ones().fp2);
      return { a, b, c };
    });
    mark('point decoding');
    for (const { a, b, c } of points) {
      mcl.verifyOrderG2(false);
      const onCurve = a.isValid() && c.isValid() && b.isValid();
      mcl.verifyOrderG2(true);
      if (!onCurve) throw new Error('bench: not on curve');
    }
    mark('on-curve checks');
    for (const { b } of points) if (!isInG2Subgroup(b)) throw new Error('bench: not in G2');
    mark('G2 subgroup check');

    const n = items.length;
    const rand = randomBytes(16 * n);
    const r: bigint[] = [];
    const rFr: mcl.Fr[] = [];
    for (let i = 0; i < n; i++) {
      let ri = bytesToHexBigInt(rand, i * 16, 16);
      if (ri === 0n) ri = 1n;
      r.push(ri);
      rFr.push(frFromBigInt(ri));
    }
    mark('random coefficients');
    const rA = points.map((p, i) => mcl.mul(p.a, rFr[i] as mcl.Fr));
    mcl.normalizeVec(rA);
    mark('r·A');

    let sumR = 0n;
    const coeffs = new Array<bigint>(this.nPublic).fill(0n);
    for (let k = 0; k < n; k++) {
      const rk = r[k] as bigint;
      sumR += rk;
      const x = inputs[k] as bigint[];
      for (let j = 0; j < this.nPublic; j++) coeffs[j] = (coeffs[j] as bigint) + rk * (x[j] as bigint);
    }
    sumR %= R;
    const vkSum = this.icMsm([sumR, ...coeffs.map((c) => c % R)]);
    mark('public-input MSM');
    const cSum = mcl.mulVec(
      points.map((p) => p.c),
      rFr,
    );
    mark('C aggregate');
    const ps = [...rA];
    const qs = points.map((p) => p.b);
    const extra = [mcl.neg(vkSum), mcl.neg(cSum)];
    mcl.normalizeVec(extra);
    ps.push(...extra);
    qs.push(this.gamma, this.delta);
    const ml = millerLoopProduct(ps, qs);
    mark('Miller loop');
    const lhs = mcl.finalExp(ml);
    mark('final exponentiation');
    const ok = lhs.isEqual(mcl.pow(this.eAlphaBeta, frFromBigInt(sumR)));
    mark('e(alpha, beta)^sum(r) and compare');
    return ok;
  }
}

function isVerificationKey(v: unknown): v is VerificationKey {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Partial<VerificationKey>;
  return typeof o.nPublic === 'number' && Array.isArray(o.ic) && typeof o.alpha === 'object';
}
