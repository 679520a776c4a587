/**
 * The native Groth16 prover: its proofs verify with snarkjs and with the crypto package's verifier,
 * its public signals are snarkjs', bad keys and witnesses are refused with typed errors, and the
 * snarkjs fallback is chosen when the addon cannot be loaded.
 */
import {
  Groth16Verifier,
  MerkleTree,
  NOTE_MEMO_BYTES,
  bytesToSnarkjsProof,
  deriveNote,
  ownerCommitment,
  type OrderTerms,
} from '@nightjar/crypto';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadArtifact, loadVerificationKey, CIRCUITS, type CircuitName } from '../src/artifacts.js';
import {
  NativeGroth16Key,
  NativeProverError,
  nativeProve,
  nativeProverAvailable,
  selectProverBackend,
  witnessFromWtns,
  type NativeAddon,
} from '../src/native-prover.js';
import { validInputV2Witness } from '../src/lock-witness.js';
import { validSpendV2Witness } from '../src/spend-witness-v2.js';
import type { ProvableNote } from '../src/witness.js';
import { calculateWitness, r1csSatisfied, setWire, snarkjs, terminateCurve } from './helpers.js';

const NOTE: ProvableNote = {
  mint: Uint8Array.from({ length: 32 }, (_, i) => i + 1),
  amount: 123_456_789n,
  spendingKey: 0x2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2an,
  noteInnerHash: 0x7777777777777777777777777777777777777777777777777777777777777n,
};
const RECIPIENT = Uint8Array.from({ length: 32 }, (_, i) => 0xff - i);
const ORDER: OrderTerms = {
  marketLo: 0x1111n,
  marketHi: 0x2222n,
  side: 1,
  amount: 1_000n,
  priceLimit: 150n,
  minFillSize: 10n,
  expirySlot: 5_000n,
  orderId: 0x77n,
};

function notePath(note: ProvableNote) {
  const c = deriveNote({
    mint: note.mint as Uint8Array,
    amount: note.amount,
    ownerCommitment: ownerCommitment(note.spendingKey),
    noteInnerHash: note.noteInnerHash,
  }).noteCommitment;
  const tree = new MerkleTree();
  tree.append(11n);
  tree.append(22n);
  return tree.proof(tree.append(c));
}

async function wtnsFor(circuit: CircuitName, note: ProvableNote = NOTE): Promise<Uint8Array> {
  const path = notePath(note);
  const w =
    circuit === 'valid_input_v2'
      ? validInputV2Witness({ ...note, mint: note.mint as Uint8Array, path, order: ORDER })
      : validSpendV2Witness({
          mint: note.mint as Uint8Array,
          noteAmount: note.amount,
          spendingKey: note.spendingKey,
          noteInnerHash: note.noteInnerHash,
          path,
          amount: 1n,
          recipient: RECIPIENT,
          change: { treeId: 1, memo: new Uint8Array(NOTE_MEMO_BYTES).fill(7) },
        });
  return calculateWitness(circuit, w.input);
}

async function snarkjsVerifies(circuit: CircuitName, proof: Uint8Array, pub: bigint[]): Promise<boolean> {
  const vkey = await loadVerificationKey(circuit);
  return snarkjs.groth16.verify(vkey, pub.map(String), bytesToSnarkjsProof(proof));
}

/** snarkjs.groth16.prove (not in the crypto package's snarkjs typing): zkey and .wtns buffers. */
function snarkjsProve(zkey: Uint8Array, wtns: Uint8Array): Promise<{ publicSignals: string[] }> {
  const g = snarkjs.groth16 as unknown as {
    prove(zkey: Uint8Array, wtns: Uint8Array): Promise<{ publicSignals: string[] }>;
  };
  return g.prove(zkey, wtns);
}

const keys = new Map<CircuitName, NativeGroth16Key>();
const zkeys = new Map<CircuitName, Uint8Array>();

beforeAll(async () => {
  for (const circuit of ['valid_input_v2', 'valid_spend_v2'] as const) {
    const zkey = await loadArtifact(CIRCUITS[circuit].zkey);
    zkeys.set(circuit, zkey);
    keys.set(circuit, NativeGroth16Key.load(zkey));
  }
}, 120_000);

afterAll(async () => {
  await terminateCurve();
});

const key = (c: CircuitName) => keys.get(c) as NativeGroth16Key;

describe('native Groth16 prover', () => {
  it('the addon is built on this machine', () => {
    expect(nativeProverAvailable()).toBe(true);
    expect(key('valid_input_v2').nPublic).toBe(CIRCUITS.valid_input_v2.publicInputs.length);
    expect(key('valid_spend_v2').nPublic).toBe(CIRCUITS.valid_spend_v2.publicInputs.length);
  });

  for (const circuit of ['valid_input_v2', 'valid_spend_v2'] as const) {
    it(`${circuit}: the proof verifies with snarkjs and the crypto verifier; public signals are snarkjs'`, async () => {
      const wtns = await wtnsFor(circuit);
      const native = await nativeProve(key(circuit), witnessFromWtns(wtns), { threads: 1 });
      expect(native.proof).toHaveLength(256);
      const ref = await snarkjsProve(zkeys.get(circuit) as Uint8Array, wtns);
      expect(native.publicSignals.map(String)).toEqual(ref.publicSignals);
      expect(await snarkjsVerifies(circuit, native.proof, native.publicSignals)).toBe(true);
      const verifier = await Groth16Verifier.create(await loadVerificationKey(circuit));
      expect(verifier.verify(native.proof, native.publicSignals)).toBe(true);
      const wrong = [...native.publicSignals];
      wrong[0] = ((wrong[0] as bigint) + 1n) % FIELD_MODULUS;
      expect(verifier.verify(native.proof, wrong)).toBe(false);
    }, 300_000);
  }

  it('threads 1 and 2 both give verifying proofs; a bigint[] witness works too; proofs are blinded', async () => {
    const wit = witnessFromWtns(await wtnsFor('valid_input_v2'));
    const asBigints: bigint[] = [];
    for (let i = 0; i < wit.length; i += 32) {
      let v = 0n;
      for (let b = 31; b >= 0; b--) v = (v << 8n) | BigInt(wit[i + b] as number);
      asBigints.push(v);
    }
    const one = await nativeProve(key('valid_input_v2'), wit, { threads: 1 });
    const two = await nativeProve(key('valid_input_v2'), asBigints, { threads: 2 });
    expect(await snarkjsVerifies('valid_input_v2', one.proof, one.publicSignals)).toBe(true);
    expect(await snarkjsVerifies('valid_input_v2', two.proof, two.publicSignals)).toBe(true);
    expect(two.publicSignals).toEqual(one.publicSignals);
    expect(Buffer.from(two.proof).equals(Buffer.from(one.proof))).toBe(false);
  }, 300_000);

  it('concurrent proofs on one key are all valid, and the event loop stays free meanwhile', async () => {
    const other: ProvableNote = { ...NOTE, amount: 5n };
    const wits = [
      witnessFromWtns(await wtnsFor('valid_input_v2')),
      witnessFromWtns(await wtnsFor('valid_input_v2', other)),
    ];
    let ticks = 0;
    let proving = true;
    const tick = (): void => {
      ticks++;
      if (proving) setImmediate(tick);
    };
    setImmediate(tick);
    const proofs = await Promise.all([
      nativeProve(key('valid_input_v2'), wits[0] as Uint8Array, { threads: 1 }),
      nativeProve(key('valid_input_v2'), wits[1] as Uint8Array, { threads: 2 }),
      nativeProve(key('valid_input_v2'), wits[0] as Uint8Array, { threads: 1 }),
    ]);
    proving = false;
    expect(ticks).toBeGreaterThan(10);
    for (const p of proofs)
      expect(await snarkjsVerifies('valid_input_v2', p.proof, p.publicSignals)).toBe(true);
    expect(proofs[1]?.publicSignals).not.toEqual(proofs[0]?.publicSignals);
  }, 300_000);

  it('a witness that violates a constraint gives a proof that does not verify', async () => {
    const wtns = await wtnsFor('valid_input_v2');
    const last = key('valid_input_v2').nVars - 1;
    const bad = setWire(wtns, last, 12345n);
    expect(await r1csSatisfied('valid_input_v2', bad)).toBe(false);
    const p = await nativeProve(key('valid_input_v2'), witnessFromWtns(bad), { threads: 2 });
    expect(await snarkjsVerifies('valid_input_v2', p.proof, p.publicSignals)).toBe(false);
  }, 300_000);

  it('refuses malformed witnesses with typed errors', async () => {
    const k = key('valid_input_v2');
    const wit = witnessFromWtns(await wtnsFor('valid_input_v2'));
    await expect(nativeProve(k, wit.subarray(32))).rejects.toMatchObject({ code: 'WITNESS_LENGTH' });
    const big = new Uint8Array(wit);
    big.fill(0xff, 64, 96);
    await expect(nativeProve(k, big)).rejects.toMatchObject({
      name: 'NativeProverError',
      code: 'WITNESS_RANGE',
    });
    const bigints = Array<bigint>(k.nVars).fill(1n);
    bigints[3] = FIELD_MODULUS;
    await expect(nativeProve(k, bigints)).rejects.toMatchObject({ code: 'WITNESS_RANGE' });
    await expect(nativeProve(k, wit, { threads: 0 })).rejects.toMatchObject({ code: 'NATIVE_ARGUMENT' });
  }, 120_000);

  it('refuses truncated and corrupted zkeys with typed errors', () => {
    const zkey = zkeys.get('valid_input_v2') as Uint8Array;
    const refuse = (bytes: Uint8Array) => {
      try {
        NativeGroth16Key.load(bytes);
      } catch (err) {
        expect(err).toBeInstanceOf(NativeProverError);
        return (err as NativeProverError).code;
      }
      throw new Error('the key was accepted');
    };
    expect(refuse(new Uint8Array(0))).toBe('ZKEY_TRUNCATED');
    expect(refuse(zkey.subarray(0, 11))).toBe('ZKEY_TRUNCATED');
    expect(refuse(zkey.subarray(0, zkey.length - 1))).toBe('ZKEY_TRUNCATED');
    expect(refuse(zkey.subarray(0, zkey.length >> 1))).toBe('ZKEY_TRUNCATED');
    const magic = new Uint8Array(zkey);
    magic[0] = (magic[0] as number) ^ 1;
    expect(refuse(magic)).toBe('ZKEY_INVALID');
    // A byte inside the last H point: the point leaves the curve (or its coordinate exceeds p).
    const point = new Uint8Array(zkey);
    const offset = findSectionEnd(zkey, 9) - 40;
    point[offset] = (point[offset] as number) ^ 0x10;
    expect(refuse(point)).toBe('ZKEY_INVALID');
    const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) & 0xff);
    garbage.set([0x7a, 0x6b, 0x65, 0x79], 0); // 'zkey'
    expect(['ZKEY_INVALID', 'ZKEY_TRUNCATED']).toContain(refuse(garbage));
  });
});

/** End offset of a zkey section's body. */
function findSectionEnd(zkey: Uint8Array, section: number): number {
  const view = new DataView(zkey.buffer, zkey.byteOffset, zkey.byteLength);
  let pos = 12;
  for (let i = 0; i < view.getUint32(8, true); i++) {
    const type = view.getUint32(pos, true);
    const size = Number(view.getBigUint64(pos + 4, true));
    if (type === section) return pos + 12 + size;
    pos += 12 + size;
  }
  throw new Error(`no section ${section}`);
}

describe('prover selection', () => {
  const fake: NativeAddon = {
    loadKey: () => ({ handle: null, nVars: 1, nPublic: 0, domainSize: 2 }),
    prove: () => Promise.reject(new Error('unused')),
  };
  const missing = (): NativeAddon => {
    throw new Error('Cannot find module nightjar_prover.node');
  };

  it('picks snarkjs when the addon cannot be loaded, native when it can', () => {
    expect(selectProverBackend({ loader: missing, env: {} })).toBe('snarkjs');
    expect(nativeProverAvailable(missing)).toBe(false);
    expect(selectProverBackend({ loader: () => fake, env: {} })).toBe('native');
  });

  it('NIGHTJAR_PROVER=snarkjs forces the fallback', () => {
    expect(selectProverBackend({ loader: () => fake, env: { NIGHTJAR_PROVER: 'snarkjs' } })).toBe('snarkjs');
  });

  it('loading a key without the addon is a typed error', () => {
    expect(() => NativeGroth16Key.load(new Uint8Array(8), missing)).toThrow(NativeProverError);
  });
});
