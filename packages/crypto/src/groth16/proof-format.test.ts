import { bigIntToBytes, bytesToHex, FIELD_MODULUS } from '@nightjar/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { loadToy5Fixture } from '../../test/fixtures/groth16/index.js';
import { isGroth16Error } from './errors.js';
import {
  BASE_FIELD_MODULUS,
  PROOF_BYTES,
  SCALAR_FIELD_MODULUS,
  bytesToSnarkjsProof,
  decodeProof,
  encodeProof,
  firstOutOfRangeCoordinate,
  proofFromSnarkjs,
  snarkjsProofToBytes,
} from './proof-format.js';
import {
  bigIntsToPublicSignals,
  bytesToPublicSignals,
  decodePublicInputs,
  encodePublicInputs,
  publicSignalsToBigInts,
  publicSignalsToBytes,
} from './public-inputs.js';
import { parseVerificationKey, verificationKeyToSnarkjs } from './verification-key.js';
import { loadSnarkjs, terminateSnarkjs } from '../snarkjs.js';

const fixture = loadToy5Fixture();

function expectCode(fn: () => unknown, code: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(isGroth16Error(thrown), `expected a Groth16Error, got ${String(thrown)}`).toBe(true);
  expect((thrown as { code: string }).code).toBe(code);
}

const be32 = (decimal: string): string => bytesToHex(bigIntToBytes(BigInt(decimal), 32));

afterAll(async () => {
  await terminateSnarkjs();
});

describe('proof bytes <-> snarkjs JSON', () => {
  it('uses the DESIGN.md layout A.x ‖ A.y ‖ B.x.c1 ‖ B.x.c0 ‖ B.y.c1 ‖ B.y.c0 ‖ C.x ‖ C.y', () => {
    for (const { proof } of fixture.proofs) {
      const bytes = snarkjsProofToBytes(proof);
      expect(bytes.length).toBe(PROOF_BYTES);
      const hex = bytesToHex(bytes);
      const expected = [
        proof.pi_a[0],
        proof.pi_a[1],
        proof.pi_b[0]?.[1],
        proof.pi_b[0]?.[0],
        proof.pi_b[1]?.[1],
        proof.pi_b[1]?.[0],
        proof.pi_c[0],
        proof.pi_c[1],
      ].map((d) => be32(d as string));
      expect(hex).toBe(expected.join(''));
    }
  });

  it('matches the order of snarkjs exportSolidityCallData (EIP-197 / Solidity verifier)', async () => {
    const snarkjs = await loadSnarkjs();
    const { proof, publicSignals } = fixture.proofs[0] as (typeof fixture.proofs)[number];
    const groth16 = snarkjs.groth16 as unknown as {
      exportSolidityCallData(p: unknown, s: unknown): Promise<string>;
    };
    const calldata = await groth16.exportSolidityCallData(proof, publicSignals);
    const [a, b, c, pub] = JSON.parse(`[${calldata}]`) as [string[], string[][], string[], string[]];
    const words = [...a, ...b.flat(), ...c].map((h) => BigInt(h).toString(16).padStart(64, '0'));
    expect(bytesToHex(snarkjsProofToBytes(proof))).toBe(words.join(''));
    expect(pub.map((h) => BigInt(h).toString())).toEqual(publicSignals);
  });

  it('round-trips every fixture proof exactly', () => {
    for (const { proof } of fixture.proofs) {
      const bytes = snarkjsProofToBytes(proof);
      const back = bytesToSnarkjsProof(bytes);
      expect(back.pi_a).toEqual(proof.pi_a);
      expect(back.pi_b).toEqual(proof.pi_b);
      expect(back.pi_c).toEqual(proof.pi_c);
      expect(encodeProof(decodeProof(bytes))).toEqual(bytes);
      expect(decodeProof(bytes)).toEqual(proofFromSnarkjs(proof));
    }
  });

  it('rejects every coordinate >= p with a typed error, accepts p - 1', () => {
    const bytes = snarkjsProofToBytes((fixture.proofs[0] as (typeof fixture.proofs)[number]).proof);
    const pBytes = bigIntToBytes(BASE_FIELD_MODULUS, 32);
    const pMinus1 = bigIntToBytes(BASE_FIELD_MODULUS - 1n, 32);
    for (let i = 0; i < 8; i++) {
      for (const bad of [pBytes, new Uint8Array(32).fill(0xff), bigIntToBytes(BASE_FIELD_MODULUS + 5n, 32)]) {
        const tampered = bytes.slice();
        tampered.set(bad, i * 32);
        expect(firstOutOfRangeCoordinate(tampered)).toBe(i);
        expectCode(() => decodeProof(tampered), 'GROTH16_COORDINATE_OUT_OF_RANGE');
      }
      const edge = bytes.slice();
      edge.set(pMinus1, i * 32);
      expect(firstOutOfRangeCoordinate(edge)).toBe(-1);
      expect(() => decodeProof(edge)).not.toThrow();
    }
  });

  it('refuses to encode a coordinate >= p', () => {
    const proof = decodeProof(
      snarkjsProofToBytes((fixture.proofs[0] as (typeof fixture.proofs)[number]).proof),
    );
    expectCode(
      () => encodeProof({ ...proof, c: { x: BASE_FIELD_MODULUS, y: 1n } }),
      'GROTH16_COORDINATE_OUT_OF_RANGE',
    );
    expectCode(
      () => encodeProof({ ...proof, b: { ...proof.b, y: { c0: 1n, c1: BASE_FIELD_MODULUS + 1n } } }),
      'GROTH16_COORDINATE_OUT_OF_RANGE',
    );
  });

  it('rejects proofs that are not exactly 256 bytes', () => {
    expectCode(() => decodeProof(new Uint8Array(255)), 'GROTH16_PROOF_LENGTH');
    expectCode(() => decodeProof(new Uint8Array(257)), 'GROTH16_PROOF_LENGTH');
    expectCode(() => decodeProof(new Uint8Array(0)), 'GROTH16_PROOF_LENGTH');
  });

  it('parses snarkjs JSON strictly', () => {
    const good = (fixture.proofs[0] as (typeof fixture.proofs)[number]).proof;
    const p = BASE_FIELD_MODULUS.toString();
    expectCode(() => proofFromSnarkjs({ ...good, pi_a: [p, '1', '1'] }), 'GROTH16_COORDINATE_OUT_OF_RANGE');
    expectCode(
      () =>
        proofFromSnarkjs({
          ...good,
          pi_b: [
            ['1', p],
            ['1', '1'],
            ['1', '0'],
          ],
        }),
      'GROTH16_COORDINATE_OUT_OF_RANGE',
    );
    expectCode(() => proofFromSnarkjs({ ...good, pi_a: ['0x12', '1', '1'] }), 'GROTH16_MALFORMED_JSON');
    expectCode(() => proofFromSnarkjs({ ...good, pi_a: ['-1', '1', '1'] }), 'GROTH16_MALFORMED_JSON');
    expectCode(
      () => proofFromSnarkjs({ ...good, pi_c: [good.pi_c[0], good.pi_c[1], '2'] }),
      'GROTH16_MALFORMED_JSON',
    );
    expectCode(() => proofFromSnarkjs({ ...good, protocol: 'plonk' }), 'GROTH16_MALFORMED_JSON');
    expectCode(() => proofFromSnarkjs(null), 'GROTH16_MALFORMED_JSON');
    // The point at infinity (z = 0) encodes as zeros (EIP-197) and decodes back to (0, 0).
    const inf = snarkjsProofToBytes({ ...good, pi_a: ['0', '1', '0'] });
    expect(inf.subarray(0, 64).every((b) => b === 0)).toBe(true);
    expect(bytesToSnarkjsProof(inf).pi_a).toEqual(['0', '1', '0']);
  });
});

describe('public inputs', () => {
  it('round-trips snarkjs public signals through the 32-byte encoding', () => {
    for (const { publicSignals } of fixture.proofs) {
      const bytes = publicSignalsToBytes(publicSignals);
      expect(bytes.length).toBe(5 * 32);
      expect(bytesToPublicSignals(bytes)).toEqual(publicSignals);
      const values = publicSignalsToBigInts(publicSignals);
      expect(decodePublicInputs(bytes, 5)).toEqual(values);
      expect(encodePublicInputs(values)).toEqual(bytes);
      expect(bigIntsToPublicSignals(values)).toEqual(publicSignals);
      expect(bytesToHex(bytes.subarray(32, 64))).toBe(be32(publicSignals[1] as string));
    }
  });

  it('rejects values >= r and accepts r - 1', () => {
    expect(SCALAR_FIELD_MODULUS).toBe(FIELD_MODULUS);
    expectCode(() => encodePublicInputs([1n, FIELD_MODULUS]), 'GROTH16_PUBLIC_INPUT_OUT_OF_RANGE');
    expectCode(() => encodePublicInputs([-1n]), 'GROTH16_PUBLIC_INPUT_OUT_OF_RANGE');
    expectCode(
      () => decodePublicInputs(bigIntToBytes(FIELD_MODULUS, 32)),
      'GROTH16_PUBLIC_INPUT_OUT_OF_RANGE',
    );
    expectCode(() => publicSignalsToBigInts([FIELD_MODULUS.toString()]), 'GROTH16_PUBLIC_INPUT_OUT_OF_RANGE');
    expect(decodePublicInputs(bigIntToBytes(FIELD_MODULUS - 1n, 32))).toEqual([FIELD_MODULUS - 1n]);
  });

  it('rejects bad lengths and malformed signals', () => {
    expectCode(() => decodePublicInputs(new Uint8Array(33)), 'GROTH16_PUBLIC_INPUT_LENGTH');
    expectCode(() => decodePublicInputs(new Uint8Array(64), 5), 'GROTH16_PUBLIC_INPUT_LENGTH');
    expectCode(() => publicSignalsToBigInts(['12a']), 'GROTH16_MALFORMED_JSON');
    expectCode(() => publicSignalsToBigInts([' 1']), 'GROTH16_MALFORMED_JSON');
    expectCode(() => publicSignalsToBigInts([1 as unknown as string]), 'GROTH16_MALFORMED_JSON');
  });
});

describe('verification key', () => {
  it('parses snarkjs verification_key.json and converts back', () => {
    const vk = parseVerificationKey(fixture.vk);
    expect(vk.nPublic).toBe(5);
    expect(vk.ic).toHaveLength(6);
    expect(vk.alpha.x).toBe(BigInt(fixture.vk.vk_alpha_1[0] as string));
    expect(vk.beta.x.c1).toBe(BigInt(fixture.vk.vk_beta_2[0]?.[1] as string));
    const back = verificationKeyToSnarkjs(vk);
    for (const k of ['nPublic', 'vk_alpha_1', 'vk_beta_2', 'vk_gamma_2', 'vk_delta_2', 'IC'] as const) {
      expect(back[k]).toEqual(fixture.vk[k]);
    }
  });

  it('rejects malformed keys with typed errors', () => {
    expectCode(
      () => parseVerificationKey({ ...fixture.vk, IC: fixture.vk.IC.slice(1) }),
      'GROTH16_MALFORMED_JSON',
    );
    expectCode(() => parseVerificationKey({ ...fixture.vk, nPublic: -1 }), 'GROTH16_MALFORMED_JSON');
    expectCode(
      () => parseVerificationKey({ ...fixture.vk, protocol: 'plonk' }),
      'GROTH16_INVALID_VERIFICATION_KEY',
    );
    expectCode(
      () => parseVerificationKey({ ...fixture.vk, vk_alpha_1: [BASE_FIELD_MODULUS.toString(), '2', '1'] }),
      'GROTH16_COORDINATE_OUT_OF_RANGE',
    );
    expectCode(
      () => parseVerificationKey({ ...fixture.vk, vk_alpha_1: ['0', '1', '0'] }),
      'GROTH16_INVALID_VERIFICATION_KEY',
    );
  });
});
