/**
 * A verification key as mcl values, checked and precomputed once per thread: alpha, beta, gamma,
 * delta and the IC points, e(alpha, beta) and its Miller loop, and the public-input term
 * vk_x = IC_0 + Σ x_j·IC_j (or a random combination of several) as one MSM.
 */
import mcl from 'mcl-wasm';
import { PublicInputError, VerificationKeyError } from './errors.js';
import { FIELD_ELEMENT_BYTES, SCALAR_FIELD_MODULUS, type G1Point, type G2Point } from './proof-format.js';
import { assertPublicInputLength, firstOutOfRangePublicInput } from './public-inputs.js';
import { type VerificationKey } from './verification-key.js';

const R = SCALAR_FIELD_MODULUS;

export interface PreparedKey {
  readonly nPublic: number;
  readonly ic: mcl.G1[];
  readonly gamma: mcl.G2;
  readonly delta: mcl.G2;
  /** Miller loop of (alpha, beta), before the final exponentiation. */
  readonly mlAlphaBeta: mcl.GT;
  /** e(alpha, beta). */
  readonly eAlphaBeta: mcl.GT;
}

function keyError(what: string, group: string): VerificationKeyError {
  return new VerificationKeyError(
    'GROTH16_INVALID_VERIFICATION_KEY',
    `verification key: ${what} is not ${group}`,
  );
}

function g1FromAffine(p: G1Point, what: string): mcl.G1 {
  const g = new mcl.G1();
  if (p.x === 0n && p.y === 0n) return g; // infinity (allowed for IC points only)
  try {
    g.setStr(`1 ${p.x.toString(16)} ${p.y.toString(16)}`, 16);
  } catch {
    throw keyError(what, 'on G1');
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
    throw keyError(what, 'in G2');
  }
  if (!g.isValidOrder()) throw keyError(what, 'in G2');
  return g;
}

/** Checks and precomputes a parsed key. Requires `await initMcl()` first. */
export function prepareKey(vk: VerificationKey): PreparedKey {
  const alpha = g1FromAffine(vk.alpha, 'alpha');
  const beta = g2FromAffine(vk.beta, 'beta');
  const mlAlphaBeta = mcl.millerLoop(alpha, beta);
  return {
    nPublic: vk.nPublic,
    gamma: g2FromAffine(vk.gamma, 'gamma'),
    delta: g2FromAffine(vk.delta, 'delta'),
    ic: vk.ic.map((p, i) => g1FromAffine(p, `IC[${i}]`)),
    mlAlphaBeta,
    eAlphaBeta: mcl.finalExp(mlAlphaBeta),
  };
}

function bytesToHexBigInt(bytes: Uint8Array, offset: number, length: number): bigint {
  return BigInt('0x' + Buffer.from(bytes.buffer, bytes.byteOffset + offset, length).toString('hex'));
}

function frFromBigInt(v: bigint): mcl.Fr {
  const f = new mcl.Fr();
  f.setStr(v.toString(16), 16);
  return f;
}

/** Public inputs as field elements, or undefined when one is not below r. Throws on shape. */
export function publicInputsOf(
  key: PreparedKey,
  publicInputs: Uint8Array | readonly bigint[],
): bigint[] | undefined {
  const n = key.nPublic;
  if (publicInputs instanceof Uint8Array) {
    assertPublicInputLength(publicInputs, n);
    if (firstOutOfRangePublicInput(publicInputs) >= 0) return undefined;
    const out: bigint[] = [];
    for (let j = 0; j < n; j++) {
      out.push(bytesToHexBigInt(publicInputs, j * FIELD_ELEMENT_BYTES, FIELD_ELEMENT_BYTES));
    }
    return out;
  }
  if (!Array.isArray(publicInputs) || publicInputs.length !== n) {
    throw new PublicInputError(
      'GROTH16_PUBLIC_INPUT_LENGTH',
      `expected ${n} public inputs, got ${Array.isArray(publicInputs) ? publicInputs.length : typeof publicInputs}`,
    );
  }
  for (const v of publicInputs) if (typeof v !== 'bigint' || v < 0n || v >= R) return undefined;
  return [...publicInputs];
}

/** vk_x = IC_0 + Σ_j x_j·IC_j for one proof's public inputs. */
export function publicInputTerm(key: PreparedKey, inputs: readonly bigint[]): mcl.G1 {
  return mcl.mulVec(key.ic, [1n, ...inputs].map(frFromBigInt));
}

/**
 * Σ_i rho_i·vk_x_i over `subset` as one MSM over the IC points,
 * (Σ rho_i)·IC_0 + Σ_j (Σ_i rho_i·x_ij)·IC_j, and Σ rho_i (mod r).
 */
export function combinedPublicInputTerm(
  key: PreparedKey,
  inputs: readonly (readonly bigint[])[],
  rho: readonly bigint[],
  subset: readonly number[],
): { term: mcl.G1; sumRho: bigint } {
  let sumRho = 0n;
  const sums = new Array<bigint>(key.nPublic).fill(0n);
  for (const i of subset) {
    const r = rho[i] as bigint;
    const x = inputs[i] as readonly bigint[];
    sumRho += r;
    for (let j = 0; j < key.nPublic; j++) sums[j] = (sums[j] as bigint) + r * (x[j] as bigint);
  }
  sumRho %= R;
  return { term: mcl.mulVec(key.ic, [sumRho, ...sums.map((s) => s % R)].map(frFromBigInt)), sumRho };
}

/** e(alpha, beta)^e as a GT element. */
export function alphaBetaPower(key: PreparedKey, e: bigint): mcl.GT {
  return mcl.pow(key.eAlphaBeta, frFromBigInt(e));
}
