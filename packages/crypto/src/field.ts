/** Range checks for the BN254 scalar field and the integer widths the note formulas use. */
import { randomBytes } from 'node:crypto';
import { FIELD_MODULUS, U64_MAX, bytesToBigInt } from '@nightjar/protocol';
import { FieldElementError, ValueRangeError } from './errors.js';

const U128_LIMIT = 1n << 128n;

export function isFieldElement(value: unknown): value is bigint {
  return typeof value === 'bigint' && value >= 0n && value < FIELD_MODULUS;
}

/** Throws FieldElementError unless `value` is a bigint in [0, r). */
export function assertFieldElement(value: unknown, name: string): asserts value is bigint {
  if (!isFieldElement(value)) throw new FieldElementError(`${name} must be a field element below r`);
}

/** Throws ValueRangeError unless `value` is a bigint in [0, 2^64). */
export function assertU64(value: unknown, name: string): asserts value is bigint {
  if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) {
    throw new ValueRangeError(`${name} must be an unsigned 64-bit integer`);
  }
}

/** Throws ValueRangeError unless `value` is a bigint in [0, 2^128) (one half of a 32-byte mint). */
export function assertU128(value: unknown, name: string): asserts value is bigint {
  if (typeof value !== 'bigint' || value < 0n || value >= U128_LIMIT) {
    throw new ValueRangeError(`${name} must be an unsigned 128-bit integer`);
  }
}

/**
 * A uniformly random field element in [0, r). r is just below 2^254, so we draw 254 random bits
 * and reject the (about 24%) draws >= r; reducing mod r instead would bias small values.
 * `source` is for tests; the default is node:crypto's CSPRNG.
 */
export function randomFieldElement(source: (size: number) => Uint8Array = randomBytes): bigint {
  for (;;) {
    const bytes = Uint8Array.from(source(32));
    bytes[0] = bytes[0]! & 0x3f;
    const candidate = bytesToBigInt(bytes);
    if (candidate < FIELD_MODULUS) return candidate;
  }
}
