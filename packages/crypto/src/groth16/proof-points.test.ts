import mcl from 'mcl-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { nonSubgroupB, nonSubgroupG2, offCurveA } from '../../test/fixtures/groth16/forge.js';
import { loadToy5Fixture, loadToy7Fixture } from '../../test/fixtures/groth16/index.js';
import { initMcl } from './mcl-verifier.js';
import { decodeProof, snarkjsProofToBytes } from './proof-format.js';
import {
  checkProofPoints,
  curveStatus,
  decodeProofPoints,
  parseProofPoints,
  type ProofPoints,
} from './proof-points.js';

beforeAll(async () => {
  await initMcl();
});

const proofs = [...loadToy5Fixture().proofs, ...loadToy7Fixture().proofs].map((p) =>
  snarkjsProofToBytes(p.proof),
);

/** The points through mcl's string setters (the slow, obviously right way). */
function reference(proof: Uint8Array): { a: mcl.G1; b: mcl.G2; c: mcl.G1 } {
  const d = decodeProof(proof);
  const a = new mcl.G1();
  a.setStr(`1 ${d.a.x.toString(16)} ${d.a.y.toString(16)}`, 16);
  const c = new mcl.G1();
  c.setStr(`1 ${d.c.x.toString(16)} ${d.c.y.toString(16)}`, 16);
  const b = new mcl.G2();
  b.setStr(
    `1 ${d.b.x.c0.toString(16)} ${d.b.x.c1.toString(16)} ${d.b.y.c0.toString(16)} ${d.b.y.c1.toString(16)}`,
    16,
  );
  return { a, b, c };
}

describe('proof points', () => {
  it('decodes every fixture proof to the points mcl parses from strings, one after another', () => {
    // Decoding reuses one scratch area: decode them all first, then compare.
    const decoded = proofs.map((p) => decodeProofPoints(p) as ProofPoints);
    decoded.forEach((points, i) => {
      const ref = reference(proofs[i] as Uint8Array);
      expect(points.a.isEqual(ref.a)).toBe(true);
      expect(points.b.isEqual(ref.b)).toBe(true);
      expect(points.c.isEqual(ref.c)).toBe(true);
      expect(curveStatus(points)).toBe('ok');
    });
  });

  it('reports a bad point even right after a good proof was decoded', () => {
    const good = proofs[0] as Uint8Array;
    expect(checkProofPoints(good)).toBe('ok');
    expect(checkProofPoints(offCurveA(good))).toBe('a-not-on-curve');
    expect(checkProofPoints(good)).toBe('ok');
    expect(checkProofPoints(nonSubgroupB(good))).toBe('b-not-in-subgroup');
    expect(parseProofPoints(good)).not.toBeTypeOf('string');
  });

  it('leaves the G2 order check of mcl on', () => {
    checkProofPoints(proofs[0] as Uint8Array);
    const outside = nonSubgroupG2();
    // With verifyOrderG2 on, isValid() includes the subgroup, so a twist point outside G2 fails.
    expect(outside.isValid()).toBe(false);
  });
});
