/**
 * The Poseidon permutation the venue runs, chosen once per number of inputs at load: the
 * WebAssembly one (poseidon-wasm/) when it instantiates and agrees with poseidon-lite on the
 * probes, else the BigInt one (poseidon-fast.ts, itself falling back to poseidon-lite). Never a
 * wrong hash, at worst a slower one. Loading is synchronous, so this works the same in worker
 * threads.
 */
import {
  BIGINT_POSEIDON,
  LITE,
  MAX_INPUTS,
  MIN_INPUTS,
  poseidonFastActive,
  probes,
  type PoseidonUnchecked,
} from './poseidon-fast.js';
import { instantiatePoseidonWasm, type PoseidonWasm } from './poseidon-wasm/instance.js';

export type PoseidonImplementation = 'wasm' | 'bigint' | 'poseidon-lite';

export interface PoseidonChoice {
  hash: PoseidonUnchecked;
  implementation: PoseidonImplementation;
}

function fallback(inputs: number): PoseidonChoice {
  const hash = BIGINT_POSEIDON[inputs];
  if (hash === undefined) throw new RangeError(`poseidon: ${inputs} inputs is out of range`);
  return { hash, implementation: poseidonFastActive(inputs) ? 'bigint' : 'poseidon-lite' };
}

/**
 * The implementation for `inputs` inputs (1..6) given the instantiated module (undefined if it
 * failed to load). Exported for tests, which pass a tampered module to exercise the fallback.
 */
export function choosePoseidon(inputs: number, wasm: PoseidonWasm | undefined): PoseidonChoice {
  const hash = wasm?.hash[inputs];
  const lite = LITE[inputs - 1];
  if (hash !== undefined && lite !== undefined) {
    try {
      if (probes(inputs).every((probe) => hash(probe) === lite([...probe])))
        return { hash, implementation: 'wasm' };
    } catch {
      // fall through to the BigInt permutation
    }
  }
  return fallback(inputs);
}

function loadWasm(): PoseidonWasm | undefined {
  try {
    return instantiatePoseidonWasm();
  } catch {
    return undefined;
  }
}

const WASM = loadWasm();

/** Index = number of inputs (1..6); index 0 is unused. */
const CHOSEN: readonly (PoseidonChoice | undefined)[] = [
  undefined,
  ...Array.from({ length: MAX_INPUTS - MIN_INPUTS + 1 }, (_, i) => choosePoseidon(i + MIN_INPUTS, WASM)),
];

/**
 * Poseidon of 1..6 inputs without checks, indexed by the number of inputs (index 0 is unused):
 * `inputs.length` must equal the index and every input must be a field element in [0, r).
 * Callers outside this package use `poseidon`, which checks.
 */
export const POSEIDON_UNCHECKED: readonly (PoseidonUnchecked | undefined)[] = CHOSEN.map((c) => c?.hash);

/** Which permutation serves `inputs` inputs (undefined outside 1..6). */
export function poseidonImplementation(inputs: number): PoseidonImplementation | undefined {
  return CHOSEN[inputs]?.implementation;
}

const pairHash = CHOSEN[2]!.hash;
const pair: bigint[] = [0n, 0n];

/**
 * Poseidon(left, right), the Merkle node hash, without input checks or an array allocation: both
 * must already be field elements in [0, r). Callers outside this package use `poseidon2`.
 */
export const poseidonT3Unchecked: (left: bigint, right: bigint) => bigint =
  CHOSEN[2]!.implementation === 'wasm' && WASM !== undefined
    ? WASM.pair
    : (left, right) => {
        pair[0] = left;
        pair[1] = right;
        return pairHash(pair);
      };
