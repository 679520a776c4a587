import { describe, expect, it } from 'vitest';
import { validLockWitness, validMatchV2Witness } from '@nightjar/circuits';
import { generateX25519KeyPair, validMatchV2PublicSignals } from '@nightjar/crypto';
import { validLockParams, validMatchV2Params } from '../../../circuits/bench/proving-fixtures.js';
import { decodeJobJson, encodeJobJson } from '../../src/prover-pool/job-codec.js';
import { JobSealError, openJob, openResult, sealJob, sealResult } from '../../src/prover-pool/job-seal.js';

describe('prover job codec', () => {
  it('round-trips match and lock parameters and proofs exactly', () => {
    const match = validMatchV2Params();
    const lock = validLockParams();
    const w = validMatchV2Witness(match);
    const lw = validLockWitness(lock);
    const matchProof = {
      proof: new Uint8Array(256).fill(7),
      publicInputs: w.publicInputs,
      publicSignals: validMatchV2PublicSignals(w.publicInputs),
      outputs: w.outputs,
    };
    const lockProof = { proof: Buffer.alloc(256, 3), publicInputs: lw.publicInputs, derived: lw.derived };
    for (const value of [match, lock, matchProof])
      expect(decodeJobJson(encodeJobJson(value))).toStrictEqual(value);
    // A Buffer comes back as the Uint8Array it is.
    expect(decodeJobJson(encodeJobJson(lockProof))).toStrictEqual({
      ...lockProof,
      proof: new Uint8Array(256).fill(3),
    });
  });

  it('writes bigints as decimal strings', () => {
    expect(new TextDecoder().decode(encodeJobJson({ a: 12345678901234567890n }))).toBe(
      '{"a":{"$n":"12345678901234567890"}}',
    );
  });
});

describe('prover job sealing', () => {
  const payload = encodeJobJson(validMatchV2Params());

  it('opens for every worker it was sealed to, and for no other key', () => {
    const [a, b, stranger] = [generateX25519KeyPair(), generateX25519KeyPair(), generateX25519KeyPair()];
    const sealed = sealJob(payload, [
      { workerId: 'a', sealingPublicKey: a.publicKey },
      { workerId: 'b', sealingPublicKey: b.publicKey },
    ]);
    expect(Object.keys(sealed.sealedKeys).sort()).toEqual(['a', 'b']);
    // The witness is nowhere in the clear.
    expect(Buffer.from(sealed.sealedPayload).includes(Buffer.from(payload.subarray(0, 24)))).toBe(false);
    const keyOf = (id: string) => Buffer.from(sealed.sealedKeys[id]!, 'base64');
    expect(openJob(sealed.sealedPayload, keyOf('a'), a.privateKey)).toEqual(payload);
    expect(openJob(sealed.sealedPayload, keyOf('b'), b.privateKey)).toEqual(payload);
    expect(() => openJob(sealed.sealedPayload, keyOf('a'), stranger.privateKey)).toThrow(JobSealError);
    expect(() => openJob(sealed.sealedPayload, keyOf('a'), b.privateKey)).toThrow(JobSealError);
  });

  it('refuses a tampered payload', () => {
    const a = generateX25519KeyPair();
    const sealed = sealJob(payload, [{ workerId: 'a', sealingPublicKey: a.publicKey }]);
    sealed.sealedPayload[20]! ^= 1;
    expect(() =>
      openJob(sealed.sealedPayload, Buffer.from(sealed.sealedKeys.a!, 'base64'), a.privateKey),
    ).toThrow(JobSealError);
  });

  it('seals results to the engine key only', () => {
    const engine = generateX25519KeyPair();
    const other = generateX25519KeyPair();
    const result = encodeJobJson({ proof: new Uint8Array(256).fill(1) });
    const sealed = sealResult(result, engine.publicKey);
    expect(openResult(sealed, engine.privateKey)).toEqual(result);
    expect(() => openResult(sealed, other.privateKey)).toThrow(JobSealError);
    expect(() => openResult(sealed.subarray(0, 10), engine.privateKey)).toThrow(JobSealError);
  });
});
