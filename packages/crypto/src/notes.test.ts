import { FIELD_MODULUS, U64_MAX, mintToFields } from '@nightjar/protocol';
import { poseidon2 as lite2 } from 'poseidon-lite/poseidon2';
import { poseidon3 as lite3 } from 'poseidon-lite/poseidon3';
import { poseidon5 as lite5 } from 'poseidon-lite/poseidon5';
import { describe, expect, it } from 'vitest';
import { seededBytes, seededFieldElements } from '../test/helpers/seeded.js';
import { randomFieldElement } from './field.js';
import {
  OutputRole,
  depositInner,
  deriveNote,
  noteCommitment,
  noteNullifier,
  openingHash,
  outputInner,
  ownerCommitment,
} from './notes.js';

const r = FIELD_MODULUS;
const [spendingKey, inner, noteSecret, nonce, parent] = seededFieldElements('notes', 5) as [
  bigint,
  bigint,
  bigint,
  bigint,
  bigint,
];
const mint = seededBytes('notes-mint', 0);
const { mintHi, mintLo } = mintToFields(mint);

const rangeError = expect.objectContaining({ code: 'VALUE_OUT_OF_RANGE' });
const fieldError = expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' });

describe('note formulas (DESIGN.md section 3), against poseidon-lite with explicit tags', () => {
  it('owner_commitment = Poseidon(1, spending_key)', () => {
    expect(ownerCommitment(spendingKey)).toBe(lite2([1n, spendingKey]));
  });

  it('opening_hash = Poseidon(6, owner_commitment, inner)', () => {
    const oc = ownerCommitment(spendingKey);
    expect(openingHash(oc, inner)).toBe(lite3([6n, oc, inner]));
  });

  it('note_commitment = Poseidon(2, mint_lo, mint_hi, amount, opening_hash)', () => {
    const oh = openingHash(ownerCommitment(spendingKey), inner);
    expect(noteCommitment({ mintLo, mintHi, amount: 1_000n, openingHash: oh })).toBe(
      lite5([2n, mintLo, mintHi, 1_000n, oh]),
    );
    // mint_lo comes first: swapping the halves gives another commitment.
    expect(noteCommitment({ mintLo: mintHi, mintHi: mintLo, amount: 1_000n, openingHash: oh })).not.toBe(
      lite5([2n, mintLo, mintHi, 1_000n, oh]),
    );
  });

  it('deposit inner = Poseidon(3, note_secret, deposit_nonce)', () => {
    expect(depositInner(noteSecret, nonce)).toBe(lite3([3n, noteSecret, nonce]));
  });

  it('output inner = Poseidon(4, parent, role) for roles 1, 2, 3', () => {
    expect(OutputRole).toEqual({ tradeOut: 1, change: 2, fee: 3 });
    const inners = [OutputRole.tradeOut, OutputRole.change, OutputRole.fee].map((role) => {
      const value = outputInner(parent, role);
      expect(value).toBe(lite3([4n, parent, BigInt(role)]));
      return value;
    });
    expect(new Set(inners).size).toBe(3);
  });

  it('nullifier = Poseidon(5, note_commitment, inner)', () => {
    const commitment = 12345n;
    expect(noteNullifier(commitment, inner)).toBe(lite3([5n, commitment, inner]));
  });

  it('deriveNote recomputes opening hash, commitment and nullifier from an opening', () => {
    const oc = ownerCommitment(spendingKey);
    const derived = deriveNote({ mint, amount: U64_MAX, ownerCommitment: oc, noteInnerHash: inner });
    const oh = lite3([6n, oc, inner]);
    const commitment = lite5([2n, mintLo, mintHi, U64_MAX, oh]);
    expect(derived).toEqual({
      openingHash: oh,
      noteCommitment: commitment,
      nullifier: lite3([5n, commitment, inner]),
    });
  });

  it('accepts amount 0 in the formula (the circuits are what refuse zero-value notes)', () => {
    expect(noteCommitment({ mintLo, mintHi, amount: 0n, openingHash: 7n })).toBe(
      lite5([2n, mintLo, mintHi, 0n, 7n]),
    );
  });
});

describe('range checks', () => {
  it('amount must be a u64', () => {
    for (const amount of [-1n, U64_MAX + 1n, r - 1n]) {
      expect(() => noteCommitment({ mintLo, mintHi, amount, openingHash: 1n })).toThrow(rangeError);
    }
  });

  it('mint halves must be 128-bit', () => {
    expect(() => noteCommitment({ mintLo: 1n << 128n, mintHi, amount: 1n, openingHash: 1n })).toThrow(
      rangeError,
    );
    expect(() => noteCommitment({ mintLo, mintHi: -1n, amount: 1n, openingHash: 1n })).toThrow(rangeError);
    expect(() =>
      deriveNote({ mint: new Uint8Array(31), amount: 1n, ownerCommitment: 1n, noteInnerHash: 1n }),
    ).toThrow(rangeError);
  });

  it('field inputs must be below r', () => {
    expect(() => ownerCommitment(r)).toThrow(fieldError);
    expect(() => openingHash(1n, r)).toThrow(fieldError);
    expect(() => noteCommitment({ mintLo, mintHi, amount: 1n, openingHash: r })).toThrow(fieldError);
    expect(() => depositInner(-1n, 0n)).toThrow(fieldError);
    expect(() => outputInner(r + 5n, OutputRole.fee)).toThrow(fieldError);
    expect(() => noteNullifier(0n, r)).toThrow(fieldError);
  });

  it('output role must be 1, 2 or 3', () => {
    for (const role of [0, 4, 1.5]) {
      expect(() => outputInner(parent, role as OutputRole)).toThrow(rangeError);
    }
  });
});

describe('randomFieldElement', () => {
  it('rejects draws >= r instead of reducing them', () => {
    const draws = [new Uint8Array(32).fill(0xff), new Uint8Array(32).fill(0x01)];
    let calls = 0;
    const value = randomFieldElement(() => draws[calls++]!);
    expect(calls).toBe(2);
    // 0xff.. masked to 254 bits is >= r and is skipped; the second draw is taken as is.
    expect(value).toBe(BigInt('0x' + '01'.repeat(32)));
  });

  it('draws distinct values below r spread over the whole range', () => {
    const values = Array.from({ length: 500 }, () => randomFieldElement());
    expect(values.every((v) => v >= 0n && v < r)).toBe(true);
    expect(new Set(values).size).toBe(values.length);
    const upperHalf = values.filter((v) => v >= r / 2n).length;
    // Binomial(500, 1/2): 150..350 fails with probability ~1e-19.
    expect(upperHalf).toBeGreaterThan(150);
    expect(upperHalf).toBeLessThan(350);
  });
});
