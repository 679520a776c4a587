/**
 * circomlib's Poseidon over BN254 for 1..6 inputs (state width t = 2..7), computed faster than
 * poseidon-lite (about 1.2x for one input up to 2x for five and six) while producing the very same
 * permutation.
 *
 * The round constants and MDS matrices are poseidon-lite's own (circomlib's). Two standard,
 * output-preserving rewrites (Poseidon paper, appendix B) are derived from them once at load, per
 * width. Write M for the MDS matrix, M̂ for its lower-right (t-1)×(t-1) block, m_r = M[0][1..] and
 * m_c = M[1..][0].
 *
 * 1. Constant pushing. In a partial round only state[0] enters the S-box, so the constants added to
 *    state[1..] can be pushed through the round's M into the next round's constants. Each partial
 *    round is then `s = M · sbox0(s + k·e0)` with a single scalar k.
 * 2. Sparse factorisation. X = S · A with A = diag(1, X̂) and S = [[X00, w], [v, I]], where
 *    w = X[0][1..] · X̂⁻¹ and v = X[1..][0]. A leaves state[0] alone, so it commutes with sbox0 and
 *    with adding k·e0 and folds into the previous round's matrix (X ← A · M). Working back from
 *    the last partial round (X = M) every partial round gets a sparse S and the last full round
 *    before them gets the dense matrix P = A_0 · M. Because A · M keeps row 0 of M and has lower
 *    block X̂ · M̂, the matrices have a closed form: partial round i of R (0-based) has X̂ = M̂^(R-i),
 *    so S_i has X00 = M00, w_i = m_r · M̂^-(R-i) and v_i = M̂^(R-1-i) · m_c, and
 *    P = diag(1, M̂^R) · M. One (t-1)×(t-1) inversion per width suffices.
 *
 * With the sparse S, state[1..] are only ever accumulated (`s_j += v_j · x`) during the partial
 * rounds, so they are reduced once at the end instead of every round. BigInt `%` dominates the
 * cost, so this is where most of the time goes away; further savings: x^5 with two reductions,
 * the first S-box of state[0] (always (0 + c)^5) precomputed, and only row 0 of the last
 * matrix product computed (the hash is state[0]).
 *
 * If poseidon-lite's constants cannot be loaded for a width, or the result disagrees with
 * poseidon-lite on known inputs, that width falls back to poseidon-lite itself: never a wrong
 * hash, at worst a slower one.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { FIELD_MODULUS as F } from '@nightjar/protocol';
import { poseidon1 } from 'poseidon-lite/poseidon1';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { poseidon3 } from 'poseidon-lite/poseidon3';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import { poseidon5 } from 'poseidon-lite/poseidon5';
import { poseidon6 } from 'poseidon-lite/poseidon6';

/** Hash of `width - 1` field elements; inputs must already be in [0, r) and are not modified. */
export type PoseidonUnchecked = (inputs: readonly bigint[]) => bigint;

const MIN_INPUTS = 1;
const MAX_INPUTS = 6;
const HALF_FULL_ROUNDS = 4; // circomlib: 8 full rounds, half before and half after the partial rounds
/** circomlib's N_ROUNDS_P, indexed by width t - 2. */
const PARTIAL_ROUNDS = [56, 57, 56, 60, 60, 63] as const;

type Matrix = bigint[][];

export interface LiteConstants {
  width: number;
  partialRounds: number;
  /** Round constants, `width` per round, rounds in order. */
  roundConstants: bigint[];
  mds: Matrix;
}

interface OptimizedConstants {
  width: number;
  partialRounds: number;
  /** Constants of the full rounds in order: 4 rounds before the partial rounds, 4 after. */
  full: bigint[];
  /** One scalar per partial round, added to state[0] before its S-box. */
  partial: bigint[];
  /** Per partial round, 2t-1 entries: S00, w_1..w_(t-1), v_1..v_(t-1) of its sparse matrix. */
  sparse: bigint[];
  /** M, row-major. */
  mds: bigint[];
  /** P = A_0 · M, row-major: the matrix of the last full round before the partial rounds. */
  preSparse: bigint[];
}

const mod = (x: bigint): bigint => ((x % F) + F) % F;

function invert(a: bigint): bigint {
  // Fermat: a^(r-2) = a^-1 for a != 0 (r is prime).
  let base = mod(a);
  if (base === 0n) throw new Error('poseidon-fast: singular matrix');
  let result = 1n;
  for (let e = F - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % F;
    base = (base * base) % F;
  }
  return result;
}

/** Inverse of a square matrix over F by Gauss-Jordan elimination; throws if singular. */
function invertMatrix(m: Matrix): Matrix {
  const n = m.length;
  const a = m.map((row, i) => [...row.map(mod), ...Array.from({ length: n }, (_, j) => (i === j ? 1n : 0n))]);
  for (let col = 0; col < n; col++) {
    const pivotRow = a.findIndex((row, i) => i >= col && row[col] !== 0n);
    if (pivotRow < 0) throw new Error('poseidon-fast: singular matrix');
    [a[col], a[pivotRow]] = [a[pivotRow]!, a[col]!];
    const pivot = a[col]!;
    const scale = invert(pivot[col]!);
    for (let j = 0; j < 2 * n; j++) pivot[j] = (pivot[j]! * scale) % F;
    for (let i = 0; i < n; i++) {
      const row = a[i]!;
      const factor = row[col]!;
      if (i === col || factor === 0n) continue;
      for (let j = 0; j < 2 * n; j++) row[j] = mod(row[j]! - factor * pivot[j]!);
    }
  }
  return a.map((row) => row.slice(n));
}

/** m · v (column vector). */
const matVec = (m: Matrix, v: readonly bigint[]): bigint[] =>
  m.map((row) => row.reduce((acc, x, j) => acc + x * v[j]!, 0n) % F);

/** v · m (row vector). */
const vecMat = (v: readonly bigint[], m: Matrix): bigint[] =>
  m[0]!.map((_, j) => v.reduce((acc, x, k) => acc + x * m[k]![j]!, 0n) % F);

/** a · b for an (n×k) a and a (k×m) b. */
const matMul = (a: Matrix, b: Matrix): Matrix =>
  a.map((row) => b[0]!.map((_, j) => row.reduce((acc, x, k) => acc + x * b[k]![j]!, 0n) % F));

/** m^e for a square m and e >= 1, by repeated squaring. */
function matPow(m: Matrix, e: number): Matrix {
  let result: Matrix | undefined;
  let base = m;
  for (let rest = e; rest > 0; rest >>= 1) {
    if (rest & 1) result = result === undefined ? base : matMul(result, base);
    if (rest > 1) base = matMul(base, base);
  }
  if (result === undefined) throw new Error('poseidon-fast: matPow needs e >= 1');
  return result;
}

function decodeBase64Field(value: unknown): bigint {
  if (typeof value !== 'string') throw new Error('poseidon-fast: unexpected constant');
  return BigInt('0x' + Buffer.from(value, 'base64').toString('hex'));
}

/**
 * poseidon-lite keeps its constants in `constants/<inputs>.js`, not in its export map, so we
 * require the file by absolute path next to the resolved package entry.
 */
export function loadLiteConstants(inputs: number): LiteConstants {
  const width = inputs + 1;
  const partialRounds = PARTIAL_ROUNDS[width - 2];
  if (partialRounds === undefined) throw new Error('poseidon-fast: unsupported width');
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('poseidon-lite/poseidon2'));
  const loaded = require(path.join(dir, 'constants', `${inputs}.js`)) as {
    default?: { C?: unknown; M?: unknown };
  };
  const raw = loaded.default;
  if (!raw || !Array.isArray(raw.C) || !Array.isArray(raw.M))
    throw new Error('poseidon-fast: unexpected layout');
  const roundConstants = raw.C.map(decodeBase64Field);
  const mds = raw.M.map((row: unknown) => {
    if (!Array.isArray(row) || row.length !== width) throw new Error('poseidon-fast: unexpected MDS');
    return row.map(decodeBase64Field);
  });
  if (mds.length !== width || roundConstants.length !== width * (2 * HALF_FULL_ROUNDS + partialRounds)) {
    throw new Error('poseidon-fast: unexpected constant count');
  }
  if (![...roundConstants, ...mds.flat()].every((c) => c < F))
    throw new Error('poseidon-fast: constant >= r');
  return { width, partialRounds, roundConstants, mds };
}

function optimize({ width: t, partialRounds: R, roundConstants, mds }: LiteConstants): OptimizedConstants {
  const n = t - 1;
  const roundAt = (r: number): bigint[] => roundConstants.slice(r * t, (r + 1) * t);

  // 1. Constant pushing, forward through the partial rounds.
  const partial: bigint[] = [];
  let carry: bigint[] = new Array<bigint>(t).fill(0n);
  for (let i = 0; i < R; i++) {
    const c = roundAt(HALF_FULL_ROUNDS + i);
    partial.push((c[0]! + carry[0]!) % F);
    // carry = M · (0, rest)
    const rest = c.map((x, j) => (j === 0 ? 0n : (x + carry[j]!) % F));
    carry = matVec(mds, rest);
  }
  const firstAfter = roundAt(HALF_FULL_ROUNDS + R).map((x, j) => (x + carry[j]!) % F);
  const full = [
    ...roundConstants.slice(0, HALF_FULL_ROUNDS * t),
    ...firstAfter,
    ...roundConstants.slice((HALF_FULL_ROUNDS + R + 1) * t),
  ];

  // 2. Sparse factorisation in closed form (see the header), backward from the last partial round.
  const mHat: Matrix = mds.slice(1).map((row) => row.slice(1));
  const mHatInv = invertMatrix(mHat);
  const mRow = mds[0]!.slice(1);
  const mCol = mds.slice(1).map((row) => row[0]!);
  const sparse: bigint[] = new Array<bigint>(R * (2 * t - 1)).fill(0n);
  let w = vecMat(mRow, mHatInv); // m_r · M̂^-1
  let v = mCol; // m_c
  for (let i = R - 1; i >= 0; i--) {
    const base = i * (2 * t - 1);
    sparse[base] = mds[0]![0]!;
    for (let j = 0; j < n; j++) {
      sparse[base + 1 + j] = w[j]!;
      sparse[base + 1 + n + j] = v[j]!;
    }
    w = vecMat(w, mHatInv);
    v = matVec(mHat, v);
  }
  // P = diag(1, M̂^R) · M: row 0 is M's, the lower rows are M̂^R · M[1..].
  const preSparse = [...mds[0]!, ...matMul(matPow(mHat, R), mds.slice(1)).flat()];

  return { width: t, partialRounds: R, full, partial, sparse, mds: mds.flat(), preSparse };
}

// Two reductions (a 508-bit one, then a 762-bit one): faster than one 1270-bit reduction and no
// slower than three 508-bit ones.
const pow5 = (v: bigint): bigint => {
  const sq = (v * v) % F;
  return (sq * sq * v) % F;
};

function buildOptimized(k: OptimizedConstants): PoseidonUnchecked {
  const { width: t, partialRounds: R, full, partial, sparse, mds, preSparse } = k;
  const n = t - 1; // number of inputs
  // state[0] starts at 0, so its first S-box output is a constant.
  const firstLane0 = pow5(full[0]!);
  // Scratch lanes, reused by every call (the hash is synchronous and does not re-enter).
  const s = new Array<bigint>(t).fill(0n);
  const x = new Array<bigint>(t).fill(0n);

  return (inputs) => {
    // First half of the full rounds. x = S-box outputs, s = x multiplied by the round's matrix.
    x[0] = firstLane0;
    for (let j = 1; j <= n; j++) x[j] = pow5(inputs[j - 1]! + full[j]!);
    let c = t;
    for (let r = 0; r < HALF_FULL_ROUNDS; r++) {
      if (r > 0) for (let j = 0; j < t; j++) x[j] = pow5(s[j]! + full[c++]!);
      const m = r === HALF_FULL_ROUNDS - 1 ? preSparse : mds;
      for (let i = 0, e = 0; i < t; i++) {
        let acc = 0n;
        for (let j = 0; j < t; j++) acc += m[e++]! * x[j]!;
        s[i] = acc % F;
      }
    }

    // Partial rounds with the sparse matrices. s[1..] grow by one 508-bit product per round (to
    // under 2^515 after at most 63 rounds) and are reduced once after the loop.
    let s0 = s[0]!;
    for (let i = 0, e = 0; i < R; i++) {
      const y = pow5(s0 + partial[i]!);
      let acc = sparse[e++]! * y;
      for (let j = 1; j <= n; j++, e++) {
        const sj = s[j]!;
        acc += sparse[e]! * sj;
        s[j] = sj + sparse[e + n]! * y;
      }
      e += n;
      s0 = acc % F;
    }
    s[0] = s0;
    for (let j = 1; j < t; j++) s[j] = s[j]! % F;

    // Second half of the full rounds; the last one only needs row 0 (the output).
    for (let r = 0; r < HALF_FULL_ROUNDS; r++) {
      for (let j = 0; j < t; j++) x[j] = pow5(s[j]! + full[c++]!);
      const rows = r === HALF_FULL_ROUNDS - 1 ? 1 : t;
      for (let i = 0, e = 0; i < rows; i++) {
        let acc = 0n;
        for (let j = 0; j < t; j++) acc += mds[e++]! * x[j]!;
        s[i] = acc % F;
      }
    }
    return s[0]!;
  };
}

type LiteHash = (inputs: bigint[]) => bigint;
const LITE: readonly LiteHash[] = [poseidon1, poseidon2, poseidon3, poseidon4, poseidon5, poseidon6];

/** Probe inputs for the load-time check: all zeros, all r - 1, and a spread of mixed values. */
function probes(inputs: number): bigint[][] {
  const mixed = Array.from({ length: inputs }, (_, i) =>
    mod(0x1234567890abcdefn * BigInt(i + 1) ** 40n + BigInt(i) - (i % 2 === 0 ? 0n : 1n)),
  );
  mixed[inputs - 1] = F - 1n;
  return [new Array<bigint>(inputs).fill(0n), new Array<bigint>(inputs).fill(F - 1n), mixed];
}

export interface Selected {
  hash: PoseidonUnchecked;
  optimized: boolean;
}

/**
 * The implementation for `inputs` inputs (1..6): the optimised one if it derives and agrees with
 * poseidon-lite on the probes, else poseidon-lite. Exported for tests, which pass a `load` that
 * tampers with the constants to exercise the fallback.
 */
export function selectImplementation(
  inputs: number,
  load: (inputs: number) => LiteConstants = loadLiteConstants,
): Selected {
  const lite = LITE[inputs - 1];
  if (lite === undefined) throw new RangeError(`poseidon-fast: ${inputs} inputs is out of range`);
  const fallback: PoseidonUnchecked = (values) => lite(Array.from(values));
  try {
    const fast = buildOptimized(optimize(load(inputs)));
    if (probes(inputs).every((probe) => fast(probe) === lite([...probe])))
      return { hash: fast, optimized: true };
  } catch {
    // fall through to poseidon-lite
  }
  return { hash: fallback, optimized: false };
}

/** Index = number of inputs (1..6); index 0 is unused. */
const SELECTED: readonly (Selected | undefined)[] = [
  undefined,
  ...Array.from({ length: MAX_INPUTS - MIN_INPUTS + 1 }, (_, i) => selectImplementation(i + MIN_INPUTS)),
];

/**
 * Poseidon of 1..6 inputs without checks, indexed by the number of inputs (index 0 is unused):
 * `inputs.length` must equal the index and every input must be a field element in [0, r).
 * Callers outside this package use `poseidon`, which checks.
 */
export const POSEIDON_UNCHECKED: readonly (PoseidonUnchecked | undefined)[] = SELECTED.map((s) => s?.hash);

/** Whether the optimised permutation is in use for `inputs` inputs (false: poseidon-lite fallback). */
export function poseidonFastActive(inputs: number): boolean {
  return SELECTED[inputs]?.optimized ?? false;
}

const node = SELECTED[2]!.hash;
const pair: bigint[] = [0n, 0n];

/**
 * Poseidon(left, right), the Merkle node hash, without input checks or an array allocation: both
 * must already be field elements in [0, r). Callers outside this package use `poseidon2`.
 */
export function poseidonT3Unchecked(left: bigint, right: bigint): bigint {
  pair[0] = left;
  pair[1] = right;
  return node(pair);
}
