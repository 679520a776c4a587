/**
 * Random coefficients of the batch check, in a form that is cheap to multiply by.
 *
 * G1 of BN254 has the endomorphism phi(x, y) = (beta·x, y), beta a cube root of unity in Fp, which
 * acts on the whole group (cyclic of prime order r) as multiplication by lambda, a cube root of
 * unity mod r. A coefficient is drawn as two uniform 64-bit halves r0, r1 and stands for
 *     rho = r0 + lambda·r1 mod r,    so    rho·P = r0·P + r1·phi(P),
 * a two-point multiplication with 64-bit scalars (64 shared doublings) instead of a 128-bit one.
 * Distinct (r0, r1) give distinct rho, and rho is never 0: a collision or a zero would be a
 * non-zero vector (d0, d1), |d0|, |d1| < 2^64, with d0 + lambda·d1 = 0 mod r, but the shortest
 * non-zero vector of that lattice has length about 2^127 (checked in batch-coefficients.test.ts).
 * So rho takes 2^128 - 1 distinct non-zero values, each with probability 2^-128 except rho = 1
 * with 2^-127 ((r0, r1) = (0, 0) is replaced by (1, 0)): the same soundness as the uniform
 * non-zero 128-bit coefficients before.
 */
import mcl from 'mcl-wasm';
import { BASE_FIELD_MODULUS, SCALAR_FIELD_MODULUS } from './proof-format.js';
import { FP_SIZE, FR_SIZE, G1_SIZE, WasmBlock, copyInHeap, heapBytes, wasm } from './mcl-wasm.js';
import { wnaf } from './wnaf.js';

/** lambda: a non-trivial cube root of unity mod r, the eigenvalue of phi below on G1. */
export const GLV_LAMBDA = 21888242871839275217838484774961031246154997185409878258781734729429964517155n;

/** Bytes of randomness per coefficient: r0 and r1, 8 bytes each, little-endian. */
export const COEFFICIENT_BYTES = 16;

export interface BatchCoefficients {
  /** COEFFICIENT_BYTES per coefficient (r0 ‖ r1), never both halves zero. */
  readonly bytes: Uint8Array;
  /** rho_i = r0 + lambda·r1 mod r, for the scalar arithmetic (public-input sums, sum of rho). */
  readonly rho: readonly bigint[];
}

function le64(bytes: Uint8Array, offset: number): bigint {
  let v = 0n;
  for (let k = 7; k >= 0; k--) v = (v << 8n) | BigInt(bytes[offset + k] as number);
  return v;
}

/** Coefficients from `n · COEFFICIENT_BYTES` random bytes (copied; a zero pair becomes (1, 0)). */
export function coefficientsFromBytes(random: Uint8Array, n: number): BatchCoefficients {
  if (random.length < n * COEFFICIENT_BYTES) throw new RangeError('randomBytes returned too few bytes');
  const bytes = random.slice(0, n * COEFFICIENT_BYTES);
  const rho: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const at = i * COEFFICIENT_BYTES;
    let r0 = le64(bytes, at);
    const r1 = le64(bytes, at + 8);
    if (r0 === 0n && r1 === 0n) {
      bytes[at] = 1; // probability 2^-128; keeps every coefficient non-zero
      r0 = 1n;
    }
    rho.push((r0 + GLV_LAMBDA * r1) % SCALAR_FIELD_MODULUS);
  }
  return { bytes, rho };
}

// ---------------------------------------------------------------------------------------------
// multiplication on mcl's wasm memory

let beta: mcl.Fp | undefined;
const BETA = 0; // beta, then the work area
const WORK = FP_SIZE;
const block = new WasmBlock((base) => beta?.copyToMem(base + BETA));

/** Writes phi(P) for the G1 point at `src` to `dst` (Jacobian: (beta·X, Y, Z) is phi of X/Z², Y/Z³). */
function phiAt(base: number, dst: number, src: number): void {
  copyInHeap(dst, src, G1_SIZE);
  wasm()._mclBnFp_mul(dst, dst, base + BETA);
}

/** Writes the 2m scalars r0_k, then r1_k (k in `subset`, in order) as Fr values at `frs`. */
function writeHalves(frs: number, bytesAt: number, k: BatchCoefficients, subset: number[]): void {
  const mod = wasm();
  const heap = heapBytes();
  const m = subset.length;
  const size = COEFFICIENT_BYTES;
  subset.forEach((i, j) => heap.set(k.bytes.subarray(i * size, (i + 1) * size), bytesAt + j * size));
  for (let j = 0; j < m; j++) {
    mod._mclBnFr_setLittleEndian(frs + j * FR_SIZE, bytesAt + j * size, 8);
    mod._mclBnFr_setLittleEndian(frs + (m + j) * FR_SIZE, bytesAt + j * size + 8, 8);
  }
}

/** acc += d·P for an odd NAF digit d (or 0), the table of odd multiples of P at `table`. */
function addDigit(acc: number, d: number, table: number): void {
  if (d > 0) wasm()._mclBnG1_add(acc, acc, table + (d >> 1) * G1_SIZE);
  else if (d < 0) wasm()._mclBnG1_sub(acc, acc, table + (-d >> 1) * G1_SIZE);
}

/** Window of the NAF digits of r0 and r1: tables of 4 odd multiples (P, 3P, 5P, 7P) per point. */
const W = 4;
const TABLE = 1 << (W - 2);

/**
 * rho_i·P_i = r0·P_i + r1·phi(P_i) for each i, as affine points (the multi-Miller loop wants them
 * affine). Interleaved width-4 NAF over both 64-bit halves: 64 shared doublings and about 26 mixed
 * additions per point. The tables of all points are made affine with one batched inversion, and
 * phi of a table is the table of phi(P), so it costs one Fp multiplication per entry.
 */
export function scaleEach(points: readonly mcl.G1[], k: BatchCoefficients): mcl.G1[] {
  const n = points.length;
  const base = block.at(WORK + (2 * TABLE * n + n + 1) * G1_SIZE);
  const tables = base + WORK; // n tables of P, then n tables of phi(P)
  const entry = (i: number, e: number, phi: boolean): number =>
    tables + ((phi ? n * TABLE : 0) + i * TABLE + e) * G1_SIZE;
  const out = tables + 2 * n * TABLE * G1_SIZE;
  const twice = out + n * G1_SIZE;
  const mod = wasm();
  points.forEach((p, i) => {
    p.copyToMem(entry(i, 0, false));
    mod._mclBnG1_dbl(twice, entry(i, 0, false));
    for (let e = 1; e < TABLE; e++) mod._mclBnG1_add(entry(i, e, false), entry(i, e - 1, false), twice);
  });
  mod._mclBnG1_normalizeVec(tables, tables, n * TABLE);
  for (let i = 0; i < n; i++)
    for (let e = 0; e < TABLE; e++) phiAt(base, entry(i, e, true), entry(i, e, false));

  for (let i = 0; i < n; i++) {
    const d0 = wnaf(k.bytes, i * COEFFICIENT_BYTES, 8, W);
    const d1 = wnaf(k.bytes, i * COEFFICIENT_BYTES + 8, 8, W);
    const acc = out + i * G1_SIZE;
    mod._mclBnG1_clear(acc);
    let top = d0.length - 1;
    while (top >= 0 && d0[top] === 0 && d1[top] === 0) top--;
    for (let b = top; b >= 0; b--) {
      mod._mclBnG1_dbl(acc, acc);
      addDigit(acc, d0[b] as number, entry(i, 0, false));
      addDigit(acc, d1[b] as number, entry(i, 0, true));
    }
  }
  mod._mclBnG1_normalizeVec(out, out, n);
  return points.map((_, i) => {
    const g = new mcl.G1();
    g.copyFromMem(out + i * G1_SIZE);
    return g;
  });
}

/** Σ rho_i·P_i over `subset` (indices into `points` and `k`), as one MSM over P_i and phi(P_i). */
export function combine(points: readonly mcl.G1[], k: BatchCoefficients, subset: number[]): mcl.G1 {
  const m = subset.length;
  const base = block.at(WORK + G1_SIZE + m * (2 * G1_SIZE + 2 * FR_SIZE + COEFFICIENT_BYTES));
  const out = base + WORK;
  const pts = out + G1_SIZE;
  const frs = pts + 2 * m * G1_SIZE;
  const bytesAt = frs + 2 * m * FR_SIZE;
  subset.forEach((i, j) => {
    (points[i] as mcl.G1).copyToMem(pts + j * G1_SIZE);
    phiAt(base, pts + (m + j) * G1_SIZE, pts + j * G1_SIZE);
  });
  writeHalves(frs, bytesAt, k, subset);
  wasm()._mclBnG1_mulVec(out, pts, frs, 2 * m);
  const g = new mcl.G1();
  g.copyFromMem(out);
  return g;
}

/**
 * Finds beta (once per thread, after mcl.init): the cube root of unity with phi = [lambda] on G1,
 * checked on a point (G1 is cyclic of prime order, so one non-zero point settles it for all).
 */
export function setUpGlv(): void {
  const p = BASE_FIELD_MODULUS;
  if ((GLV_LAMBDA * GLV_LAMBDA + GLV_LAMBDA + 1n) % SCALAR_FIELD_MODULUS !== 0n) {
    throw new Error('GLV: lambda is not a cube root of unity mod r');
  }
  let cube = 1n;
  for (let g = 2n; cube === 1n; g++) cube = powMod(g, (p - 1n) / 3n, p);
  const lambda = new mcl.Fr();
  lambda.setStr(GLV_LAMBDA.toString(16), 16);
  const g = mcl.hashAndMapToG1('nightjar-glv');
  for (const candidate of [cube, (cube * cube) % p]) {
    const b = new mcl.Fp();
    b.setStr(candidate.toString(16), 16);
    const phi = new mcl.G1();
    phi.setX(mcl.mul(g.getX(), b));
    phi.setY(g.getY());
    phi.setZ(g.getZ());
    if (!g.isZero() && phi.isEqual(mcl.mul(g, lambda))) {
      beta = b;
      b.copyToMem(block.at(WORK) + BETA); // the block may predate beta
      return;
    }
  }
  throw new Error('GLV: no cube root of unity in Fp acts as lambda on G1');
}

function powMod(b: bigint, e: bigint, m: bigint): bigint {
  let acc = 1n;
  let x = b % m;
  for (let k = e; k > 0n; k >>= 1n) {
    if (k & 1n) acc = (acc * x) % m;
    x = (x * x) % m;
  }
  return acc;
}
