/**
 * circomlib's Poseidon over BN254 (the constants the Circom circuits use), for 1..6 inputs.
 * "Arity" in DESIGN.md is the number of inputs; a domain tag, when there is one, is the first input.
 */
import { poseidon1 } from 'poseidon-lite/poseidon1';
import { poseidon3 } from 'poseidon-lite/poseidon3';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import { poseidon5 } from 'poseidon-lite/poseidon5';
import { poseidon6 } from 'poseidon-lite/poseidon6';
import { PoseidonArityError } from './errors.js';
import { assertFieldElement } from './field.js';
import { poseidonT3Unchecked } from './poseidon-t3.js';

export const POSEIDON_MAX_INPUTS = 6;

type LiteHash = (inputs: bigint[]) => bigint;

// Index = number of inputs. Two inputs take the optimised path (see poseidon-t3.ts).
const BY_ARITY: readonly (LiteHash | undefined)[] = [
  undefined,
  poseidon1,
  (inputs) => poseidonT3Unchecked(inputs[0]!, inputs[1]!),
  poseidon3,
  poseidon4,
  poseidon5,
  poseidon6,
];

/**
 * Poseidon of 1..6 field elements. Throws PoseidonArityError for any other count and
 * FieldElementError for an input that is not a bigint in [0, r) (negative or >= r would otherwise
 * be silently reduced, giving two encodings of one value).
 */
export function poseidon(inputs: readonly bigint[]): bigint {
  const hash = BY_ARITY[inputs.length];
  if (hash === undefined) {
    throw new PoseidonArityError(`poseidon takes 1..${POSEIDON_MAX_INPUTS} inputs, got ${inputs.length}`);
  }
  for (let i = 0; i < inputs.length; i++) assertFieldElement(inputs[i], `poseidon input ${i}`);
  return hash(inputs.slice());
}

/** Poseidon(left, right): the Merkle node hash, without an array allocation. */
export function poseidon2(left: bigint, right: bigint): bigint {
  assertFieldElement(left, 'poseidon left input');
  assertFieldElement(right, 'poseidon right input');
  return poseidonT3Unchecked(left, right);
}
