/**
 * circomlib's Poseidon over BN254 for 1..6 inputs (state width t = 2..7) in BigInt arithmetic,
 * faster than poseidon-lite (about 1.2x for one input up to 2x for five and six) while producing
 * the very same permutation. It is the fallback behind the WebAssembly permutation
 * (poseidon-unchecked.ts picks), and poseidon-lite is the fallback behind it.
 *
 * It runs the optimised form derived in poseidon-constants.ts (constant pushing and sparse partial
 * rounds). With the sparse matrices, state[1..] are only ever accumulated (`s_j += v_j · x`) during
 * the partial rounds, so they are reduced once at the end instead of every round. BigInt `%`
 * dominates the cost, so this is where most of the time goes away; further savings: x^5 with two
 * reductions, the first S-box of state[0] (always (0 + c)^5) precomputed, and only row 0 of the
 * last matrix product computed (the hash is state[0]).
 *
 * If poseidon-lite's constants cannot be loaded for a width, or the result disagrees with
 * poseidon-lite on known inputs, that width falls back to poseidon-lite itself: never a wrong
 * hash, at worst a slower one.
 */
import { FIELD_MODULUS as F } from '@nightjar/protocol';
import { poseidon1 } from 'poseidon-lite/poseidon1';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { poseidon3 } from 'poseidon-lite/poseidon3';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import { poseidon5 } from 'poseidon-lite/poseidon5';
import { poseidon6 } from 'poseidon-lite/poseidon6';
import { poseidon9 } from 'poseidon-lite/poseidon9';
import {
  HALF_FULL_ROUNDS,
  loadLiteConstants,
  mod,
  optimize,
  type LiteConstants,
  type OptimizedConstants,
} from './poseidon-constants.js';

export { loadLiteConstants, type LiteConstants } from './poseidon-constants.js';

/** Hash of `width - 1` field elements; inputs must already be in [0, r) and are not modified. */
export type PoseidonUnchecked = (inputs: readonly bigint[]) => bigint;

export const MIN_INPUTS = 1;
export const MAX_INPUTS = 6;

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
export const LITE: readonly LiteHash[] = [poseidon1, poseidon2, poseidon3, poseidon4, poseidon5, poseidon6];

/** Probe inputs for the load-time check: all zeros, all r - 1, and a spread of mixed values. */
export function probes(inputs: number): bigint[][] {
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
 * The implementation for `inputs` inputs (1..6, or 9 given `lite`): the optimised one if it derives and agrees with
 * poseidon-lite on the probes, else poseidon-lite. Exported for tests, which pass a `load` that
 * tampers with the constants to exercise the fallback.
 */
export function selectImplementation(
  inputs: number,
  load: (inputs: number) => LiteConstants = loadLiteConstants,
  lite: LiteHash | undefined = LITE[inputs - 1],
): Selected {
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

/**
 * Built on first use per width: with the WebAssembly permutation in front, this is only a
 * fallback, and deriving it costs well over 100 ms at every process and worker start.
 */
const selected: (Selected | undefined)[] = [];
const inRange = (inputs: number): boolean =>
  Number.isInteger(inputs) && inputs >= MIN_INPUTS && inputs <= MAX_INPUTS;
const selectedFor = (inputs: number): Selected => (selected[inputs] ??= selectImplementation(inputs));

/**
 * The BigInt Poseidon of 1..6 inputs without checks (or poseidon-lite where it fell back), indexed
 * by the number of inputs (index 0 is unused). The venue hashes through poseidon-unchecked.ts,
 * which prefers the WebAssembly permutation and falls back to these.
 */
export const BIGINT_POSEIDON: readonly (PoseidonUnchecked | undefined)[] = Array.from(
  { length: MAX_INPUTS + 1 },
  (_, inputs) =>
    inRange(inputs) ? (values: readonly bigint[]) => selectedFor(inputs).hash(values) : undefined,
);

/** Whether the optimised BigInt permutation is in use for `inputs` inputs (false: poseidon-lite). */
export function poseidonFastActive(inputs: number): boolean {
  return inRange(inputs) && selectedFor(inputs).optimized;
}

/** Inputs of the order digest (DESIGN 3: domain tag and eight terms). */
export const ORDER_DIGEST_INPUTS = 9;
let nine: Selected | undefined;

/**
 * The nine-input Poseidon of the order digest without checks, optimised as above (about 2.5x
 * poseidon-lite's 0.7 ms) and checked against poseidon-lite at first use, else poseidon-lite. Intake
 * hashes one per order in the verifier workers.
 */
export function poseidon9Unchecked(inputs: readonly bigint[]): bigint {
  nine ??= selectImplementation(ORDER_DIGEST_INPUTS, loadLiteConstants, poseidon9);
  return nine.hash(inputs);
}
