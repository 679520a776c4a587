/**
 * circomlib's Poseidon over BN254 (the constants the Circom circuits use), for 1..6 inputs.
 * "Arity" in DESIGN.md is the number of inputs; a domain tag, when there is one, is the first input.
 */
import { PoseidonArityError } from './errors.js';
import { assertFieldElement } from './field.js';
import { POSEIDON_UNCHECKED, poseidonT3Unchecked } from './poseidon-unchecked.js';

export const POSEIDON_MAX_INPUTS = 6;

/**
 * Poseidon of 1..6 field elements. Throws PoseidonArityError for any other count and
 * FieldElementError for an input that is not a bigint in [0, r) (negative or >= r would otherwise
 * be silently reduced, giving two encodings of one value).
 */
export function poseidon(inputs: readonly bigint[]): bigint {
  // Index = number of inputs; each arity takes the fastest permutation that agrees (poseidon-unchecked.ts).
  const hash = inputs.length <= POSEIDON_MAX_INPUTS ? POSEIDON_UNCHECKED[inputs.length] : undefined;
  if (hash === undefined) {
    throw new PoseidonArityError(`poseidon takes 1..${POSEIDON_MAX_INPUTS} inputs, got ${inputs.length}`);
  }
  for (let i = 0; i < inputs.length; i++) assertFieldElement(inputs[i], `poseidon input ${i}`);
  // The hash only reads `inputs` (the poseidon-lite fallback copies them), so no defensive copy.
  return hash(inputs);
}

/** Poseidon(left, right): the Merkle node hash, without an array allocation. */
export function poseidon2(left: bigint, right: bigint): bigint {
  assertFieldElement(left, 'poseidon left input');
  assertFieldElement(right, 'poseidon right input');
  return poseidonT3Unchecked(left, right);
}
