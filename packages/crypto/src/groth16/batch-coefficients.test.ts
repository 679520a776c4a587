import { randomBytes } from 'node:crypto';
import mcl from 'mcl-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COEFFICIENT_BYTES,
  GLV_LAMBDA,
  coefficientsFromBytes,
  combine,
  scaleEach,
  type BatchCoefficients,
} from './batch-coefficients.js';
import { initMcl } from './mcl-verifier.js';
import { SCALAR_FIELD_MODULUS } from './proof-format.js';

const R = SCALAR_FIELD_MODULUS;

beforeAll(async () => {
  await initMcl();
});

function fr(v: bigint): mcl.Fr {
  const f = new mcl.Fr();
  f.setStr(v.toString(16), 16);
  return f;
}

/** A shortest non-zero vector of {(a, b) : a + lambda·b = 0 mod r} (Lagrange-Gauss reduction). */
function shortestLatticeVector(): [bigint, bigint] {
  const dot = (x: [bigint, bigint], y: [bigint, bigint]): bigint => x[0] * y[0] + x[1] * y[1];
  const roundDiv = (a: bigint, b: bigint): bigint => {
    const negative = a < 0n !== b < 0n;
    const [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
    const q = (2n * x + y) / (2n * y);
    return negative ? -q : q;
  };
  let u: [bigint, bigint] = [R, 0n];
  let v: [bigint, bigint] = [(R - GLV_LAMBDA) % R, 1n];
  if (dot(u, u) < dot(v, v)) [u, v] = [v, u];
  for (;;) {
    const m = roundDiv(dot(u, v), dot(v, v));
    u = [u[0] - m * v[0], u[1] - m * v[1]];
    if (dot(u, u) >= dot(v, v)) return v;
    [u, v] = [v, u];
  }
}

function coefficients(pairs: Array<[bigint, bigint]>): BatchCoefficients {
  const bytes = new Uint8Array(pairs.length * COEFFICIENT_BYTES);
  pairs.forEach(([r0, r1], i) => {
    for (let b = 0; b < 8; b++) {
      bytes[i * 16 + b] = Number((r0 >> BigInt(8 * b)) & 0xffn);
      bytes[i * 16 + 8 + b] = Number((r1 >> BigInt(8 * b)) & 0xffn);
    }
  });
  return coefficientsFromBytes(bytes, pairs.length);
}

const MAX = (1n << 64n) - 1n;

describe('batch coefficients (rho = r0 + lambda·r1)', () => {
  it('lambda is a cube root of unity mod r', () => {
    expect((GLV_LAMBDA * GLV_LAMBDA + GLV_LAMBDA + 1n) % R).toBe(0n);
    expect(GLV_LAMBDA).not.toBe(1n);
  });

  it('gives 2^128 distinct non-zero coefficients: the lattice has no non-zero vector with 64-bit entries', () => {
    // Two pairs with the same rho differ by a lattice vector (d0, d1) with |d0|, |d1| < 2^64, and a
    // pair with rho = 0 is one; the shortest non-zero vector is far longer than any of those.
    const [a, b] = shortestLatticeVector();
    expect((a + GLV_LAMBDA * b) % R).toBe(0n);
    expect(a * a + b * b).toBeGreaterThan(2n ** 250n); // about 2^127 long
    expect(a * a + b * b).toBeGreaterThan(2n * 2n ** 128n); // > (sqrt(2)·2^64)^2 with a wide margin
  });

  it('maps the bytes to rho = r0 + lambda·r1 mod r, little-endian halves, (0, 0) → (1, 0)', () => {
    const k = coefficients([
      [5n, 0n],
      [0n, 7n],
      [MAX, MAX],
      [0n, 0n],
    ]);
    expect(k.rho).toEqual([5n, (7n * GLV_LAMBDA) % R, (MAX + GLV_LAMBDA * MAX) % R, 1n]);
    expect(k.bytes[3 * 16]).toBe(1);
    expect(() => coefficientsFromBytes(new Uint8Array(31), 2)).toThrow(RangeError);
  });

  it('does not change the caller bytes', () => {
    const bytes = new Uint8Array(32);
    coefficientsFromBytes(bytes, 2);
    expect(bytes.every((b) => b === 0)).toBe(true);
  });

  it('scaleEach computes rho_i·P_i (affine) for edge and random halves, affine or Jacobian input', () => {
    const pairs: Array<[bigint, bigint]> = [
      [1n, 0n],
      [0n, 1n],
      [MAX, 0n],
      [0n, MAX],
      [MAX, MAX],
      [2n ** 63n, 2n ** 63n - 1n],
      ...Array.from({ length: 10 }, (): [bigint, bigint] => [
        BigInt('0x' + randomBytes(8).toString('hex')),
        BigInt('0x' + randomBytes(8).toString('hex')),
      ]),
    ];
    const k = coefficients(pairs);
    // Jacobian inputs (Z != 1) as well as affine ones.
    const points = pairs.map((_, i) => {
      const p = mcl.hashAndMapToG1(`scale-${i}`);
      return i % 2 === 0 ? mcl.normalize(p) : mcl.dbl(p);
    });
    const scaled = scaleEach(points, k);
    scaled.forEach((s, i) => {
      expect(s.isEqual(mcl.mul(points[i] as mcl.G1, fr(k.rho[i] as bigint)))).toBe(true);
      expect(s.getZ().isOne()).toBe(true);
    });
  });

  it('combine computes Σ rho_i·P_i over a subset', () => {
    const k = coefficientsFromBytes(randomBytes(6 * COEFFICIENT_BYTES), 6);
    const points = Array.from({ length: 6 }, (_, i) => mcl.hashAndMapToG1(`combine-${i}`));
    for (const subset of [[0, 1, 2, 3, 4, 5], [1, 4], [5]]) {
      let expected = new mcl.G1();
      for (const i of subset)
        expected = mcl.add(expected, mcl.mul(points[i] as mcl.G1, fr(k.rho[i] as bigint)));
      expect(combine(points, k, subset).isEqual(expected)).toBe(true);
    }
  });
});
