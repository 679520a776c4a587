/**
 * The points of a 256-byte proof as mcl values, with every check a proof element needs: each
 * coordinate < p, not the point at infinity, A and C on the curve (G1 of BN254 has cofactor 1, so
 * on-curve means in the group), B on the twist and in the order-r subgroup G2. Decoding writes the
 * big-endian coordinates straight into mcl's wasm memory (one setter call per coordinate) instead
 * of going through mcl-wasm's per-call allocating wrappers.
 */
import mcl from 'mcl-wasm';
import { isInG2Subgroup } from './g2-subgroup.js';
import { FP2_SIZE, FP_SIZE, G1_SIZE, G2_SIZE, WasmBlock, heapBytes, wasm } from './mcl-wasm.js';
import { PROOF_BYTES, assertProofLength, firstOutOfRangeCoordinate } from './proof-format.js';

/** Result of checking the three points of a proof. Anything but 'ok' makes the proof invalid. */
export type ProofPointStatus =
  | 'ok'
  | 'coordinate-out-of-range'
  | 'a-infinity'
  | 'b-infinity'
  | 'c-infinity'
  | 'a-not-on-curve'
  | 'b-not-on-curve'
  | 'b-not-in-subgroup'
  | 'c-not-on-curve';

export interface ProofPoints {
  a: mcl.G1;
  b: mcl.G2;
  c: mcl.G1;
}

// Scratch layout: the proof bytes, then A, C (G1) and B (G2), each with Z = 1.
const BYTES = 0;
const A = PROOF_BYTES;
const C = A + G1_SIZE;
const B = C + G1_SIZE;
const BLOCK_BYTES = B + G2_SIZE;

/** Zeroes the block and writes the Z coordinates once: Z = 1 in G1, (1, 0) in G2 (0 is all-zero bits). */
const block = new WasmBlock((base) => {
  const heap = heapBytes();
  heap.fill(0, base, base + BLOCK_BYTES);
  heap[base + BYTES + 31] = 1;
  for (const z of [A + 2 * FP_SIZE, C + 2 * FP_SIZE, B + 2 * FP2_SIZE]) setFp(base + z, base + BYTES);
});

function allZero(bytes: Uint8Array, offset: number, length: number): boolean {
  for (let i = offset; i < offset + length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** Fp at `dst` from the 32 big-endian bytes at `src` (range-checked by the caller: no reduction). */
function setFp(dst: number, src: number): void {
  wasm()._mclBnFp_setBigEndianMod(dst, src, 32);
}

/**
 * A, B, C of a proof whose coordinates are known to be < p, decoded without curve checks, or which
 * of them is the point at infinity (all-zero coordinates).
 */
export function decodeProofPoints(
  proof: Uint8Array,
): ProofPoints | 'a-infinity' | 'b-infinity' | 'c-infinity' {
  if (allZero(proof, 0, 64)) return 'a-infinity';
  if (allZero(proof, 64, 128)) return 'b-infinity';
  if (allZero(proof, 192, 64)) return 'c-infinity';
  const base = block.at(BLOCK_BYTES);
  heapBytes().set(proof.subarray(0, PROOF_BYTES), base + BYTES);
  const src = (k: number): number => base + BYTES + 32 * k;
  setFp(base + A, src(0));
  setFp(base + A + FP_SIZE, src(1));
  // B.x = c0 + c1·u is stored (a, b) = (c0, c1); the proof has c1 first.
  setFp(base + B + FP_SIZE, src(2));
  setFp(base + B, src(3));
  setFp(base + B + FP2_SIZE + FP_SIZE, src(4));
  setFp(base + B + FP2_SIZE, src(5));
  setFp(base + C, src(6));
  setFp(base + C + FP_SIZE, src(7));
  const a = new mcl.G1();
  a.copyFromMem(base + A);
  const b = new mcl.G2();
  b.copyFromMem(base + B);
  const c = new mcl.G1();
  c.copyFromMem(base + C);
  return { a, b, c };
}

/** On-curve checks of decoded points (B on the twist only; the subgroup is checked separately). */
export function curveStatus(p: ProofPoints): 'ok' | 'a-not-on-curve' | 'b-not-on-curve' | 'c-not-on-curve' {
  if (!p.a.isValid()) return 'a-not-on-curve';
  if (!p.c.isValid()) return 'c-not-on-curve';
  // With mcl's G2 order check off, isValid() is the twist equation alone.
  const mod = wasm();
  mod._mclBn_verifyOrderG2(0);
  try {
    if (!p.b.isValid()) return 'b-not-on-curve';
  } finally {
    mod._mclBn_verifyOrderG2(1);
  }
  return 'ok';
}

/** The points of a proof with all checks done, or why it is invalid. Does not check the length. */
export function parseProofPoints(proof: Uint8Array): ProofPoints | Exclude<ProofPointStatus, 'ok'> {
  if (firstOutOfRangeCoordinate(proof) >= 0) return 'coordinate-out-of-range';
  const points = decodeProofPoints(proof);
  if (typeof points === 'string') return points;
  const onCurve = curveStatus(points);
  if (onCurve !== 'ok') return onCurve;
  return isInG2Subgroup(points.b) ? points : 'b-not-in-subgroup';
}

/**
 * Checks the points of a 256-byte proof (ranges, infinity, curve and subgroup membership) without
 * verifying it. Requires `await initMcl()` first. Throws only when the length is not 256.
 */
export function checkProofPoints(proof: Uint8Array): ProofPointStatus {
  assertProofLength(proof);
  const parsed = parseProofPoints(proof);
  return typeof parsed === 'string' ? parsed : 'ok';
}
