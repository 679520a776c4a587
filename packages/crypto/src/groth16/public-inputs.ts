/**
 * Groth16 public inputs (DESIGN.md section 3): field elements below the scalar field modulus r,
 * each 32 bytes big-endian, concatenated in circuit order; and snarkjs' publicSignals (decimal
 * strings) to and from that form.
 */
import { FIELD_MODULUS, bigIntToBytes, bytesToBigInt } from '@nightjar/protocol';
import { PublicInputError } from './errors.js';
import { DECIMAL_RE, FIELD_ELEMENT_BYTES, belowLimit } from './proof-format.js';

/** Big-endian bytes of r, for range checks without BigInt. */
const R_BYTES = bigIntToBytes(FIELD_MODULUS, 32);

function checkScalar(value: bigint, index: number): bigint {
  if (typeof value !== 'bigint' || value < 0n || value >= FIELD_MODULUS) {
    throw new PublicInputError(
      'GROTH16_PUBLIC_INPUT_OUT_OF_RANGE',
      `public input ${index} is not a field element below r`,
    );
  }
  return value;
}

/** Field elements (each < r) -> concatenated 32-byte big-endian. */
export function encodePublicInputs(inputs: readonly bigint[]): Uint8Array {
  const out = new Uint8Array(inputs.length * FIELD_ELEMENT_BYTES);
  inputs.forEach((v, i) => out.set(bigIntToBytes(checkScalar(v, i), 32), i * FIELD_ELEMENT_BYTES));
  return out;
}

/**
 * Index of the first 32-byte public input that is not below r, or -1. Does not check the length.
 */
export function firstOutOfRangePublicInput(bytes: Uint8Array): number {
  const n = Math.floor(bytes.length / FIELD_ELEMENT_BYTES);
  for (let i = 0; i < n; i++) if (!belowLimit(bytes, i * 32, R_BYTES)) return i;
  return -1;
}

/** Throws unless `bytes` holds exactly `expectedCount` 32-byte elements (any count when omitted). */
export function assertPublicInputLength(bytes: Uint8Array, expectedCount?: number): void {
  if (!(bytes instanceof Uint8Array) || bytes.length % FIELD_ELEMENT_BYTES !== 0) {
    throw new PublicInputError('GROTH16_PUBLIC_INPUT_LENGTH', 'public inputs must be a multiple of 32 bytes');
  }
  if (expectedCount !== undefined && bytes.length !== expectedCount * FIELD_ELEMENT_BYTES) {
    throw new PublicInputError(
      'GROTH16_PUBLIC_INPUT_LENGTH',
      `expected ${expectedCount} public inputs, got ${bytes.length / FIELD_ELEMENT_BYTES}`,
    );
  }
}

/** Concatenated 32-byte big-endian -> field elements. Strict: length and every element < r. */
export function decodePublicInputs(bytes: Uint8Array, expectedCount?: number): bigint[] {
  assertPublicInputLength(bytes, expectedCount);
  const out: bigint[] = [];
  for (let i = 0; i < bytes.length / FIELD_ELEMENT_BYTES; i++) {
    out.push(checkScalar(bytesToBigInt(bytes.subarray(i * 32, i * 32 + 32)), i));
  }
  return out;
}

/** snarkjs publicSignals (decimal strings) -> field elements (strict: each < r). */
export function publicSignalsToBigInts(signals: readonly unknown[]): bigint[] {
  if (!Array.isArray(signals)) {
    throw new PublicInputError('GROTH16_MALFORMED_JSON', 'public signals: expected an array');
  }
  return signals.map((s, i) => {
    if (typeof s !== 'string' || !DECIMAL_RE.test(s)) {
      throw new PublicInputError('GROTH16_MALFORMED_JSON', `public signal ${i}: expected a decimal string`);
    }
    return checkScalar(BigInt(s), i);
  });
}

/** Field elements -> snarkjs publicSignals (decimal strings). */
export function bigIntsToPublicSignals(inputs: readonly bigint[]): string[] {
  return inputs.map((v, i) => checkScalar(v, i).toString());
}

/** snarkjs publicSignals -> concatenated 32-byte big-endian. */
export function publicSignalsToBytes(signals: readonly unknown[]): Uint8Array {
  return encodePublicInputs(publicSignalsToBigInts(signals));
}

/** Concatenated 32-byte big-endian -> snarkjs publicSignals. */
export function bytesToPublicSignals(bytes: Uint8Array): string[] {
  return bigIntsToPublicSignals(decodePublicInputs(bytes));
}
