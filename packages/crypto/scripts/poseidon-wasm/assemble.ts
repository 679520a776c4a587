/**
 * Builds the Poseidon WebAssembly module: the optimised constants for 1..6 inputs, the WAT from
 * permutation-wat.ts, assembled by wabt (pure WebAssembly, so no native toolchain is needed).
 * The output is deterministic: the same source gives the same bytes, which the artifact test
 * relies on.
 */
import wabt from 'wabt';
import { loadLiteConstants, optimize } from '../../src/poseidon-constants.js';
import { MAX_WASM_INPUTS, MIN_WASM_INPUTS } from '../../src/poseidon-wasm/layout.js';
import { permutationWat } from './permutation-wat.js';

export function poseidonWat(): string {
  const widths = [];
  for (let inputs = MIN_WASM_INPUTS; inputs <= MAX_WASM_INPUTS; inputs++) {
    widths.push(optimize(loadLiteConstants(inputs)));
  }
  return permutationWat(widths);
}

export async function buildPoseidonWasm(): Promise<Uint8Array> {
  const module = (await wabt()).parseWat('poseidon.wat', poseidonWat(), { simd: true });
  try {
    module.validate();
    return module.toBinary({ log: false, write_debug_names: false, canonicalize_lebs: true }).buffer;
  } finally {
    module.destroy();
  }
}
