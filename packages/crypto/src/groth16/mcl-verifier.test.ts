import { randomBytes } from 'node:crypto';
import { bigIntToBytes, FIELD_MODULUS } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mcl from 'mcl-wasm';
import {
  bumpInput,
  doubleA,
  nonSubgroupB,
  nonSubgroupG2,
  offCurveA,
  onTwist,
  scaleA,
  swapAC,
  tamperC,
} from '../../test/fixtures/groth16/forge.js';
import { loadToy5Fixture, loadToy7Fixture } from '../../test/fixtures/groth16/index.js';
import { isGroth16Error } from './errors.js';
import {
  Groth16Verifier,
  checkProofPoints,
  g2SubgroupCheckMethod,
  isInG2Subgroup,
  type ProofItem,
} from './mcl-verifier.js';
import { BASE_FIELD_MODULUS, bytesToSnarkjsProof, decodeProof, snarkjsProofToBytes } from './proof-format.js';
import { bytesToPublicSignals, publicSignalsToBigInts, publicSignalsToBytes } from './public-inputs.js';
import { mulG2DoubleAndAdd, twistPoints } from './twist-points.js';
import { loadSnarkjs, terminateSnarkjs, type SnarkjsApi } from '../snarkjs.js';

const fixture = loadToy5Fixture();
const items: ProofItem[] = fixture.proofs.map((p) => ({
  proof: snarkjsProofToBytes(p.proof),
  publicInputs: publicSignalsToBytes(p.publicSignals),
}));
const item = (i: number): ProofItem => items[i % items.length] as ProofItem;
const validBatch = (n: number): ProofItem[] => Array.from({ length: n }, (_, i) => item(i));

let verifier: Groth16Verifier;
let snarkjs: SnarkjsApi;

beforeAll(async () => {
  verifier = await Groth16Verifier.create(fixture.vk);
  snarkjs = await loadSnarkjs();
});

afterAll(async () => {
  await terminateSnarkjs();
});

async function snarkjsVerify(it: ProofItem): Promise<boolean> {
  return snarkjs.groth16.verify(
    fixture.vk,
    bytesToPublicSignals(it.publicInputs as Uint8Array),
    bytesToSnarkjsProof(it.proof),
  );
}

describe('single verification', () => {
  it('accepts every valid fixture proof, as snarkjs does', async () => {
    for (const it of items) {
      expect(verifier.verify(it.proof, it.publicInputs)).toBe(true);
      expect(await snarkjsVerify(it)).toBe(true);
    }
  });

  it('accepts public inputs given as field elements', () => {
    const p = fixture.proofs[0] as (typeof fixture.proofs)[number];
    expect(verifier.verify(item(0).proof, publicSignalsToBigInts(p.publicSignals))).toBe(true);
  });

  it('agrees with snarkjs groth16.verify on tampered proofs', async () => {
    const tampered: Array<[string, ProofItem]> = [];
    for (const i of [0, 5, 11]) {
      const base = item(i);
      tampered.push(['2A', { ...base, proof: doubleA(base.proof) }]);
      tampered.push(['C+A', { ...base, proof: tamperC(base.proof) }]);
      tampered.push(['swap A/C', { ...base, proof: swapAC(base.proof) }]);
      tampered.push(['other B', { ...base, proof: withB(base.proof, item(i + 1).proof) }]);
      tampered.push(['other inputs', { ...base, publicInputs: item(i + 1).publicInputs }]);
    }
    for (const [name, t] of tampered) {
      expect(verifier.verify(t.proof, t.publicInputs), name).toBe(false);
      expect(await snarkjsVerify(t), name).toBe(false);
    }
  });

  it('rejects a proof when any single public input changes', () => {
    for (let j = 0; j < 5; j++) {
      expect(verifier.verify(item(3).proof, bumpInput(item(3).publicInputs as Uint8Array, j))).toBe(false);
    }
  });

  it('treats public inputs >= r as invalid', () => {
    const inputs = (item(2).publicInputs as Uint8Array).slice();
    inputs.set(bigIntToBytes(FIELD_MODULUS, 32), 64);
    expect(verifier.verify(item(2).proof, inputs)).toBe(false);
    // x + r would pass a verifier that reduces mod r; it must not pass here.
    const values = publicSignalsToBigInts(
      (fixture.proofs[2] as (typeof fixture.proofs)[number]).publicSignals,
    );
    values[1] = (values[1] as bigint) + FIELD_MODULUS;
    expect(verifier.verify(item(2).proof, values)).toBe(false);
  });

  it('rejects off-curve, out-of-range, infinity and non-subgroup points without throwing', () => {
    const base = item(4).proof;
    const offCurve = offCurveA(base);
    expect(checkProofPoints(offCurve)).toBe('a-not-on-curve');
    expect(verifier.verify(offCurve, item(4).publicInputs)).toBe(false);

    const g = nonSubgroupG2();
    expect(onTwist(g)).toBe(true);
    expect(g.isValidOrder()).toBe(false);
    const badB = nonSubgroupB(base);
    expect(checkProofPoints(badB)).toBe('b-not-in-subgroup');
    expect(verifier.verify(badB, item(4).publicInputs)).toBe(false);

    const offB = base.slice();
    offB[127] = (offB[127] as number) ^ 1;
    expect(checkProofPoints(offB)).toBe('b-not-on-curve');
    expect(verifier.verify(offB, item(4).publicInputs)).toBe(false);

    const bigX = base.slice();
    bigX.set(bigIntToBytes(BASE_FIELD_MODULUS, 32), 192);
    expect(checkProofPoints(bigX)).toBe('coordinate-out-of-range');
    expect(verifier.verify(bigX, item(4).publicInputs)).toBe(false);

    for (const [offset, length, status] of [
      [0, 64, 'a-infinity'],
      [64, 128, 'b-infinity'],
      [192, 64, 'c-infinity'],
    ] as const) {
      const inf = base.slice();
      inf.fill(0, offset, offset + length);
      expect(checkProofPoints(inf)).toBe(status);
      expect(verifier.verify(inf, item(4).publicInputs)).toBe(false);
    }
    expect(checkProofPoints(base)).toBe('ok');
  });

  it('refuses a verification key whose points are not valid group elements', async () => {
    const alpha = fixture.vk.vk_alpha_1;
    const badAlpha = {
      ...fixture.vk,
      vk_alpha_1: [alpha[0] as string, (BigInt(alpha[1] as string) + 1n).toString(), '1'],
    };
    const g = nonSubgroupG2();
    const ng = mcl.normalize(g);
    const [x, y] = [ng.getX(), ng.getY()];
    const dec = (f: mcl.Fp): string => BigInt('0x' + f.getStr(16)).toString();
    const badGamma = {
      ...fixture.vk,
      vk_gamma_2: [
        [dec(x.get_a()), dec(x.get_b())],
        [dec(y.get_a()), dec(y.get_b())],
        ['1', '0'],
      ],
    };
    for (const vk of [badAlpha, badGamma]) {
      let err: unknown;
      try {
        await Groth16Verifier.create(vk);
      } catch (e) {
        err = e;
      }
      expect(isGroth16Error(err, 'GROTH16_INVALID_VERIFICATION_KEY')).toBe(true);
    }
  });

  it('throws typed errors only for shape errors', () => {
    const codeOf = (fn: () => unknown): string | undefined => {
      try {
        fn();
      } catch (err) {
        return isGroth16Error(err) ? err.code : 'untyped';
      }
      return undefined;
    };
    expect(codeOf(() => verifier.verify(new Uint8Array(255), item(0).publicInputs))).toBe(
      'GROTH16_PROOF_LENGTH',
    );
    expect(codeOf(() => verifier.verify(item(0).proof, new Uint8Array(4 * 32)))).toBe(
      'GROTH16_PUBLIC_INPUT_LENGTH',
    );
    expect(codeOf(() => verifier.verify(item(0).proof, [1n, 2n]))).toBe('GROTH16_PUBLIC_INPUT_LENGTH');
  });
});

function withB(proof: Uint8Array, donor: Uint8Array): Uint8Array {
  const out = proof.slice();
  out.set(donor.subarray(64, 192), 64);
  return out;
}

describe('G2 subgroup check', () => {
  it('uses the endomorphism test, which agrees with mcl isValidOrder', () => {
    expect(g2SubgroupCheckMethod()).toBe('endomorphism');
    const inG2 = [
      ...Array.from({ length: 8 }, (_, i) => mcl.hashAndMapToG2(`g2-member-${i}`)),
      ...items.slice(0, 4).map((it) => {
        const b = new mcl.G2();
        const d = decodeProof(it.proof).b;
        b.setStr(
          `1 ${d.x.c0.toString(16)} ${d.x.c1.toString(16)} ${d.y.c0.toString(16)} ${d.y.c1.toString(16)}`,
          16,
        );
        return b;
      }),
    ];
    for (const q of inG2) {
      expect(q.isValidOrder()).toBe(true);
      expect(isInG2Subgroup(q)).toBe(true);
    }
    // Random twist points: almost surely outside G2 (the cofactor is about 2^254).
    const outside = twistPoints(8);
    // Points of the cofactor part only: [r]P has no G2 component, so it has order dividing the cofactor.
    const torsion = twistPoints(2, 50).map((p) => mulG2DoubleAndAdd(p, FIELD_MODULUS));
    // A G2 point plus a cofactor-torsion point.
    const mixed = torsion.map((t, i) => mcl.add(t, inG2[i] as mcl.G2));
    for (const q of [...outside, ...torsion, ...mixed]) {
      expect(q.isZero()).toBe(false);
      expect(onTwist(q)).toBe(true);
      expect(q.isValidOrder()).toBe(false);
      expect(isInG2Subgroup(q)).toBe(false);
    }
  });

  it('gives the same answer for Jacobian (Z != 1) points and for infinity', () => {
    const inside = mcl.dbl(mcl.hashAndMapToG2('g2-jacobian'));
    const outside = mcl.dbl(nonSubgroupG2());
    expect(inside.getZ().isOne()).toBe(false);
    expect(isInG2Subgroup(inside)).toBe(true);
    expect(isInG2Subgroup(outside)).toBe(false);
    expect(isInG2Subgroup(new mcl.G2())).toBe(true); // the identity is in every subgroup
  });
});

describe('batch verification', () => {
  it('accepts batches of 1, 4 and 16 valid proofs', () => {
    for (const n of [1, 4, 16]) {
      expect(verifier.verifyBatch(validBatch(n))).toEqual(new Array(n).fill(true));
    }
    expect(verifier.verifyBatch([])).toEqual([]);
  });

  it('rejects exactly the forged proof and accepts the rest (bisection)', () => {
    const forgeries: Array<[string, (it: ProofItem) => ProofItem]> = [
      ['A -> 2A', (it) => ({ ...it, proof: doubleA(it.proof) })],
      ['C tampered', (it) => ({ ...it, proof: tamperC(it.proof) })],
      [
        'public input changed',
        (it) => ({ ...it, publicInputs: bumpInput(it.publicInputs as Uint8Array, 2) }),
      ],
    ];
    for (const [name, forge] of forgeries) {
      for (const bad of [0, 7, 15]) {
        const batch = validBatch(16);
        batch[bad] = forge(batch[bad] as ProofItem);
        const expected = batch.map((_, i) => i !== bad);
        expect(verifier.verifyBatch(batch), `${name} at ${bad}`).toEqual(expected);
      }
    }
  });

  it('finds several bad proofs of different kinds in one batch', () => {
    const batch = validBatch(13);
    batch[1] = { ...item(1), proof: doubleA(item(1).proof) };
    batch[2] = { ...item(2), proof: nonSubgroupB(item(2).proof) };
    batch[6] = { ...item(6), proof: offCurveA(item(6).proof) };
    batch[9] = { ...item(9), publicInputs: bumpInput(item(9).publicInputs as Uint8Array, 0) };
    const inputs = (item(12).publicInputs as Uint8Array).slice();
    inputs.set(bigIntToBytes(FIELD_MODULUS, 32), 0);
    batch[12] = { ...item(12), publicInputs: inputs };
    const expected = batch.map((_, i) => ![1, 2, 6, 9, 12].includes(i));
    expect(verifier.verifyBatch(batch)).toEqual(expected);
  });

  it('catches forgeries built to cancel out under equal coefficients', () => {
    // Copies of proof 0 with A -> 2A, 3A, -2A: the pairing errors are e(A,B)^(1 + 2 - 3) = 1, so a
    // combination with equal coefficients accepts all three. Random coefficients must not.
    const batch = validBatch(6);
    batch[0] = { ...item(0), proof: scaleA(item(0).proof, 2) };
    batch[1] = { ...item(0), proof: scaleA(item(0).proof, 3) };
    batch[2] = { ...item(0), proof: scaleA(item(0).proof, -2) };
    const allOnes = { randomBytes: (n: number) => new Uint8Array(n) }; // every coefficient becomes 1
    expect(verifier.verifyBatch(batch.slice(0, 3), allOnes)).toEqual([true, true, true]);
    expect(verifier.verifyBatch(batch)).toEqual([false, false, false, true, true, true]);
  });

  it('catches them too when every coefficient is lambda·r1 (r0 = 0) or r0 alone (r1 = 0)', () => {
    const batch = validBatch(8);
    batch[1] = { ...item(0), proof: scaleA(item(0).proof, 2) };
    batch[4] = { ...item(0), proof: scaleA(item(0).proof, 3) };
    batch[6] = { ...item(0), proof: scaleA(item(0).proof, -2) };
    const expected = batch.map((_, i) => ![1, 4, 6].includes(i));
    // Each coefficient is r0 ‖ r1, 8 little-endian bytes each.
    const zeroHalf = (half: 'r0' | 'r1') => (n: number) => {
      const bytes = randomBytes(n);
      const from = half === 'r0' ? 0 : 8;
      for (let i = 0; i < n; i += 16) bytes.fill(0, i + from, i + from + 8);
      return bytes;
    };
    expect(verifier.verifyBatch(batch, { randomBytes: zeroHalf('r0') })).toEqual(expected);
    expect(verifier.verifyBatch(batch, { randomBytes: zeroHalf('r1') })).toEqual(expected);
    // Extreme halves: all ones except one byte, so that coefficients differ.
    const extreme = (n: number) => {
      const bytes = new Uint8Array(n).fill(0xff);
      for (let i = 0; i < n; i += 16) bytes[i] = i / 16;
      return bytes;
    };
    expect(verifier.verifyBatch(batch, { randomBytes: extreme })).toEqual(expected);
    expect(verifier.verifyBatch(validBatch(8), { randomBytes: extreme })).toEqual(new Array(8).fill(true));
  });

  it('uses the coefficient source it is given', () => {
    let asked = 0;
    const res = verifier.verifyBatch(validBatch(5), {
      randomBytes: (n) => {
        asked = n;
        return new Uint8Array(n).fill(0x5a);
      },
    });
    expect(asked).toBe(5 * 16);
    expect(res).toEqual(new Array(5).fill(true));
  });

  it('verifies with a second key of a different size (7 public inputs)', async () => {
    const toy7 = loadToy7Fixture();
    const v7 = await Groth16Verifier.create(toy7.vk);
    expect(v7.nPublic).toBe(7);
    const batch: ProofItem[] = toy7.proofs.map((p) => ({
      proof: snarkjsProofToBytes(p.proof),
      publicInputs: publicSignalsToBytes(p.publicSignals),
    }));
    expect(v7.verifyBatch(batch)).toEqual([true, true, true, true]);
    // A toy5 proof padded to 7 inputs is not valid under the toy7 key.
    const padded = new Uint8Array(7 * 32);
    padded.set(item(0).publicInputs as Uint8Array);
    expect(v7.verify(item(0).proof, padded)).toBe(false);
  });
});
