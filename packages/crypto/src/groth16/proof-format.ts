/**
 * Groth16 proof, public-input and verification-key formats (DESIGN.md section 3).
 *
 * Proof bytes (256): A.x ‖ A.y ‖ B.x.c1 ‖ B.x.c0 ‖ B.y.c1 ‖ B.y.c0 ‖ C.x ‖ C.y, each coordinate a
 * 32-byte big-endian integer below the BN254 base field modulus p; A is not negated. This is the
 * EIP-197 / Solidity-verifier order. An Fp2 element is c0 + c1·u; snarkjs writes it as [c0, c1].
 * The point at infinity is encoded as all-zero coordinates (EIP-197); it is never a valid proof
 * element, so the verifier rejects it.
 *
 * Public inputs (public-inputs.ts) and verification keys (verification-key.ts) have their own
 * modules; this one holds the curve constants, the point types and the points' snarkjs JSON form
 * that all three share.
 */
import { FIELD_MODULUS, bigIntToBytes, bytesToBigInt } from '@nightjar/protocol';
import { ProofFormatError } from './errors.js';

/** BN254 base field modulus p (coordinates of curve points are below it). */
export const BASE_FIELD_MODULUS =
  21888242871839275222246405745257275088696311157297823662689037894645226208583n;

/** BN254 scalar field modulus r (public inputs are below it). Same as protocol's FIELD_MODULUS. */
export const SCALAR_FIELD_MODULUS: bigint = FIELD_MODULUS;

export const PROOF_BYTES = 256;
export const FIELD_ELEMENT_BYTES = 32;

/** Affine G1 point; (0, 0) denotes the point at infinity. */
export interface G1Point {
  x: bigint;
  y: bigint;
}

/** Fp2 element c0 + c1·u. */
export interface Fp2Element {
  c0: bigint;
  c1: bigint;
}

/** Affine G2 point on the twist; all-zero coordinates denote the point at infinity. */
export interface G2Point {
  x: Fp2Element;
  y: Fp2Element;
}

export interface Groth16Proof {
  a: G1Point;
  b: G2Point;
  c: G1Point;
}

/** A proof as snarkjs writes it: decimal strings, projective coordinates (z = 1, or 0 for infinity). */
export interface SnarkjsProof {
  pi_a: string[];
  pi_b: string[][];
  pi_c: string[];
  protocol?: string;
  curve?: string;
}

// ---------------------------------------------------------------------------------------------
// points in snarkjs' JSON form (decimal strings, projective with z = 1, or 0 for infinity);
// exported for verification-key.ts

/** A decimal string of at most 80 digits (snarkjs' numbers). */
export const DECIMAL_RE = /^[0-9]{1,80}$/;

function parseDecimal(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !DECIMAL_RE.test(value)) {
    throw new ProofFormatError('GROTH16_MALFORMED_JSON', `${what}: expected a decimal string`);
  }
  return BigInt(value);
}

function checkCoordinate(value: bigint, what: string): bigint {
  if (value < 0n || value >= BASE_FIELD_MODULUS) {
    throw new ProofFormatError(
      'GROTH16_COORDINATE_OUT_OF_RANGE',
      `${what} is not below the base field modulus`,
    );
  }
  return value;
}

export function isG1Infinity(p: G1Point): boolean {
  return p.x === 0n && p.y === 0n;
}

export function isG2Infinity(p: G2Point): boolean {
  return p.x.c0 === 0n && p.x.c1 === 0n && p.y.c0 === 0n && p.y.c1 === 0n;
}

export function g1FromJson(value: unknown, what: string): G1Point {
  if (!Array.isArray(value) || (value.length !== 3 && value.length !== 2)) {
    throw new ProofFormatError('GROTH16_MALFORMED_JSON', `${what}: expected [x, y, z]`);
  }
  const x = checkCoordinate(parseDecimal(value[0], `${what}.x`), `${what}.x`);
  const y = checkCoordinate(parseDecimal(value[1], `${what}.y`), `${what}.y`);
  const z = value.length === 3 ? parseDecimal(value[2], `${what}.z`) : 1n;
  if (z === 0n) return { x: 0n, y: 0n };
  if (z !== 1n) {
    throw new ProofFormatError('GROTH16_MALFORMED_JSON', `${what}: only affine (z = 1) or infinity (z = 0)`);
  }
  return { x, y };
}

function fp2FromJson(value: unknown, what: string): Fp2Element {
  if (!Array.isArray(value) || value.length !== 2) {
    throw new ProofFormatError('GROTH16_MALFORMED_JSON', `${what}: expected [c0, c1]`);
  }
  return {
    c0: checkCoordinate(parseDecimal(value[0], `${what}.c0`), `${what}.c0`),
    c1: checkCoordinate(parseDecimal(value[1], `${what}.c1`), `${what}.c1`),
  };
}

export function g2FromJson(value: unknown, what: string): G2Point {
  if (!Array.isArray(value) || (value.length !== 3 && value.length !== 2)) {
    throw new ProofFormatError('GROTH16_MALFORMED_JSON', `${what}: expected [x, y, z] of Fp2`);
  }
  const x = fp2FromJson(value[0], `${what}.x`);
  const y = fp2FromJson(value[1], `${what}.y`);
  if (value.length === 3) {
    const z = value[2] as unknown;
    if (!Array.isArray(z) || z.length !== 2) {
      throw new ProofFormatError('GROTH16_MALFORMED_JSON', `${what}.z: expected [c0, c1]`);
    }
    const z0 = parseDecimal(z[0], `${what}.z.c0`);
    const z1 = parseDecimal(z[1], `${what}.z.c1`);
    if (z0 === 0n && z1 === 0n) return { x: { c0: 0n, c1: 0n }, y: { c0: 0n, c1: 0n } };
    if (z0 !== 1n || z1 !== 0n) {
      throw new ProofFormatError(
        'GROTH16_MALFORMED_JSON',
        `${what}: only affine (z = 1) or infinity (z = 0)`,
      );
    }
  }
  return { x, y };
}

export function g1ToJson(p: G1Point): string[] {
  if (isG1Infinity(p)) return ['0', '1', '0'];
  return [p.x.toString(), p.y.toString(), '1'];
}

export function g2ToJson(p: G2Point): string[][] {
  if (isG2Infinity(p)) {
    return [
      ['0', '0'],
      ['1', '0'],
      ['0', '0'],
    ];
  }
  return [
    [p.x.c0.toString(), p.x.c1.toString()],
    [p.y.c0.toString(), p.y.c1.toString()],
    ['1', '0'],
  ];
}

// ---------------------------------------------------------------------------------------------
// proofs

/** Parses a snarkjs proof object (strict: decimal strings, coordinates < p, affine or infinity). */
export function proofFromSnarkjs(json: unknown): Groth16Proof {
  if (typeof json !== 'object' || json === null) {
    throw new ProofFormatError('GROTH16_MALFORMED_JSON', 'proof: expected an object');
  }
  const o = json as Record<string, unknown>;
  if (o.protocol !== undefined && o.protocol !== 'groth16') {
    throw new ProofFormatError('GROTH16_MALFORMED_JSON', 'proof: protocol is not groth16');
  }
  if (o.curve !== undefined && o.curve !== 'bn128' && o.curve !== 'bn254') {
    throw new ProofFormatError('GROTH16_MALFORMED_JSON', 'proof: curve is not bn128');
  }
  return { a: g1FromJson(o.pi_a, 'pi_a'), b: g2FromJson(o.pi_b, 'pi_b'), c: g1FromJson(o.pi_c, 'pi_c') };
}

/** A proof in snarkjs' JSON shape (decimal strings, z = 1). */
export function proofToSnarkjs(proof: Groth16Proof): SnarkjsProof {
  return {
    pi_a: g1ToJson(proof.a),
    pi_b: g2ToJson(proof.b),
    pi_c: g1ToJson(proof.c),
    protocol: 'groth16',
    curve: 'bn128',
  };
}

/** The 256-byte layout of DESIGN.md section 3. Throws when a coordinate is not below p. */
export function encodeProof(proof: Groth16Proof): Uint8Array {
  const coords = [
    proof.a.x,
    proof.a.y,
    proof.b.x.c1,
    proof.b.x.c0,
    proof.b.y.c1,
    proof.b.y.c0,
    proof.c.x,
    proof.c.y,
  ];
  const out = new Uint8Array(PROOF_BYTES);
  coords.forEach((v, i) => {
    out.set(bigIntToBytes(checkCoordinate(v, COORDINATE_NAMES[i] ?? 'coordinate'), 32), i * 32);
  });
  return out;
}

const COORDINATE_NAMES = ['A.x', 'A.y', 'B.x.c1', 'B.x.c0', 'B.y.c1', 'B.y.c0', 'C.x', 'C.y'];

/** Big-endian bytes of p, for range checks without BigInt. */
const P_BYTES = bigIntToBytes(BASE_FIELD_MODULUS, 32);

/** True when the 32 bytes at `offset` (big-endian) are < the 32-byte big-endian `limit`. */
export function belowLimit(bytes: Uint8Array, offset: number, limit: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) {
    const a = bytes[offset + i] as number;
    const b = limit[i] as number;
    if (a !== b) return a < b;
  }
  return false;
}

/**
 * Index (0..7, in layout order) of the first coordinate of a 256-byte proof that is not below p,
 * or -1 when all are in range. Does not check the length.
 */
export function firstOutOfRangeCoordinate(bytes: Uint8Array): number {
  for (let i = 0; i < 8; i++) if (!belowLimit(bytes, i * 32, P_BYTES)) return i;
  return -1;
}

/** Throws a typed error unless `bytes` is exactly 256 bytes. */
export function assertProofLength(bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== PROOF_BYTES) {
    throw new ProofFormatError(
      'GROTH16_PROOF_LENGTH',
      `proof must be ${PROOF_BYTES} bytes, got ${bytes instanceof Uint8Array ? bytes.length : typeof bytes}`,
    );
  }
}

/** Strict decoding of the 256-byte layout: exact length, every coordinate < p. */
export function decodeProof(bytes: Uint8Array): Groth16Proof {
  assertProofLength(bytes);
  const bad = firstOutOfRangeCoordinate(bytes);
  if (bad >= 0) {
    throw new ProofFormatError(
      'GROTH16_COORDINATE_OUT_OF_RANGE',
      `proof ${COORDINATE_NAMES[bad] ?? 'coordinate'} is not below the base field modulus`,
    );
  }
  const at = (i: number): bigint => bytesToBigInt(bytes.subarray(i * 32, i * 32 + 32));
  return {
    a: { x: at(0), y: at(1) },
    b: { x: { c1: at(2), c0: at(3) }, y: { c1: at(4), c0: at(5) } },
    c: { x: at(6), y: at(7) },
  };
}

/** snarkjs proof JSON -> 256 bytes. */
export function snarkjsProofToBytes(json: unknown): Uint8Array {
  return encodeProof(proofFromSnarkjs(json));
}

/** 256 bytes -> snarkjs proof JSON. */
export function bytesToSnarkjsProof(bytes: Uint8Array): SnarkjsProof {
  return proofToSnarkjs(decodeProof(bytes));
}
