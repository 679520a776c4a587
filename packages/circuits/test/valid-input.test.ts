import { MerkleTree, noteNullifier, openingHash, ownerCommitment, poseidon } from '@nightjar/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CIRCUITS } from '../src/artifacts.js';
import { validInputWitness, type ProvableNote } from '../src/witness.js';
import {
  assertAt,
  calculateWitness,
  getWire,
  noteOwnershipLines,
  num2BitsAssert,
  publicWire,
  r1csSatisfied,
  setWire,
  terminateCurve,
} from './helpers.js';

const NOTE: ProvableNote = {
  mintHi: 0x0102030405060708090a0b0c0d0e0f10n,
  mintLo: 0xf1f2f3f4f5f6f7f8f9fafbfcfdfeff00n,
  amount: 1_000_000n,
  spendingKey: 0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdefn,
  noteInnerHash: 0xfedcba0987654321fedcba0987654321fedcba0987654321fedcba098765432n,
};

/**
 * Poseidon(2, mint_lo, mint_hi, amount, opening_hash) without the range checks of the crypto
 * package's noteCommitment, so that tests can build commitments over out-of-range values.
 */
function commitmentOf(n: ProvableNote): bigint {
  const opening = openingHash(ownerCommitment(n.spendingKey), n.noteInnerHash);
  return poseidon([2n, n.mintLo as bigint, n.mintHi as bigint, n.amount, opening]);
}

/** A tree holding a few unrelated leaves and `note` at index 5 (bits 1, 0, 1, 0...). */
function treeWith(note: ProvableNote, index = 5): { tree: MerkleTree; index: number } {
  const tree = new MerkleTree();
  for (let i = 0; i < 7; i++) tree.append(i === index ? commitmentOf(note) : 1000n + BigInt(i));
  return { tree, index };
}

function validInput(note: ProvableNote = NOTE, index = 5) {
  const { tree } = treeWith(note, index);
  return { tree, w: validInputWitness(note, tree.proof(index)) };
}

const NOTE_LINE = {
  ...noteOwnershipLines(),
  boolean: assertAt('MerkleRoot', 'note.circom', 'path_indices[i] * (path_indices[i] - 1) === 0'),
  commitment: assertAt('ValidInput', 'valid_input.circom', 'note.note_commitment === note_commitment'),
  nullifier: assertAt('ValidInput', 'valid_input.circom', 'note.nullifier === nullifier'),
};

describe('VALID_INPUT circuit', () => {
  let validWtns: Uint8Array;

  beforeAll(async () => {
    validWtns = await calculateWitness('valid_input', validInput().w.input);
  });

  afterAll(terminateCurve);

  it('accepts a valid witness and exposes the public inputs in DESIGN order', async () => {
    const { tree, w } = validInput();
    expect(w.derived.merkleRoot).toBe(tree.root);
    expect(await r1csSatisfied('valid_input', validWtns)).toBe(true);
    const names = CIRCUITS.valid_input.publicInputs;
    expect(names).toEqual(['merkle_root', 'note_commitment', 'nullifier', 'mint_lo', 'mint_hi']);
    expect(names.map((n) => getWire(validWtns, publicWire('valid_input', n)))).toEqual(w.publicInputs);
    expect(w.publicInputs).toEqual([
      tree.root,
      commitmentOf(NOTE),
      noteNullifier(commitmentOf(NOTE), NOTE.noteInnerHash),
      NOTE.mintLo,
      NOTE.mintHi,
    ]);
  });

  it.each([0, 6])('accepts the note at leaf index %i', async (index) => {
    const { w } = validInput(NOTE, index);
    expect(await r1csSatisfied('valid_input', await calculateWitness('valid_input', w.input))).toBe(true);
  });

  it('accepts the largest u64 amount', async () => {
    const note = { ...NOTE, amount: (1n << 64n) - 1n };
    const { w } = validInput(note);
    expect(await r1csSatisfied('valid_input', await calculateWitness('valid_input', w.input))).toBe(true);
  });

  it('rejects a wrong merkle root', async () => {
    const { w } = validInput();
    const bad = { ...w.input, merkle_root: (w.derived.merkleRoot + 1n).toString() };
    await expect(calculateWitness('valid_input', bad)).rejects.toThrow(NOTE_LINE.root);
  });

  it('rejects a path to another leaf (same root, wrong position)', async () => {
    const { tree, w } = validInput();
    const other = tree.proof(4);
    const bad = {
      ...w.input,
      path_elements: other.siblings.map(String),
      path_indices: other.pathIndices.map(String),
    };
    await expect(calculateWitness('valid_input', bad)).rejects.toThrow(NOTE_LINE.root);
  });

  it('rejects a wrong spending key', async () => {
    const { w } = validInput();
    const bad = { ...w.input, spending_key: (NOTE.spendingKey + 1n).toString() };
    await expect(calculateWitness('valid_input', bad)).rejects.toThrow(NOTE_LINE.root);
  });

  it('rejects a wrong note inner hash', async () => {
    const { w } = validInput();
    const bad = { ...w.input, note_inner_hash: (NOTE.noteInnerHash + 1n).toString() };
    await expect(calculateWitness('valid_input', bad)).rejects.toThrow(NOTE_LINE.root);
  });

  it('rejects amount 0 even with a matching commitment in the tree', async () => {
    const note = { ...NOTE, amount: 0n };
    const { tree } = treeWith(note);
    const w = validInputWitness({ ...NOTE }, tree.proof(5));
    const c = commitmentOf(note);
    const bad = {
      ...w.input,
      amount: '0',
      merkle_root: tree.root.toString(),
      note_commitment: c.toString(),
      nullifier: noteNullifier(c, NOTE.noteInnerHash).toString(),
    };
    await expect(calculateWitness('valid_input', bad)).rejects.toThrow(NOTE_LINE.nonZero);
  });

  it.each([
    ['2^64', 1n << 64n],
    ['2^64 + 1000', (1n << 64n) + 1000n],
    ['r - 1 (i.e. -1)', 21888242871839275222246405745257275088548364400416034343698204186575808495616n],
  ])(
    'rejects amount %s even with a matching commitment in the tree (range check)',
    async (_label, amount) => {
      const note = { ...NOTE, amount };
      const { tree } = treeWith(note);
      const w = validInputWitness({ ...NOTE }, tree.proof(5));
      const c = commitmentOf(note);
      const bad = {
        ...w.input,
        amount: amount.toString(),
        merkle_root: tree.root.toString(),
        note_commitment: c.toString(),
        nullifier: noteNullifier(c, NOTE.noteInnerHash).toString(),
      };
      await expect(calculateWitness('valid_input', bad)).rejects.toThrow(
        num2BitsAssert('NoteOwnership', 'amountBits.in <== amount'),
      );
    },
  );

  it('rejects a wrong mint (public mint_lo or mint_hi changed)', async () => {
    const { w } = validInput();
    await expect(
      calculateWitness('valid_input', { ...w.input, mint_lo: (NOTE.mintLo! + 1n).toString() }),
    ).rejects.toThrow(NOTE_LINE.root);
    await expect(
      calculateWitness('valid_input', { ...w.input, mint_hi: (NOTE.mintHi! ^ 1n).toString() }),
    ).rejects.toThrow(NOTE_LINE.root);
  });

  it('rejects a mint half of 2^128 or more even with a matching commitment (range check)', async () => {
    const note = { ...NOTE, mintLo: 1n << 128n };
    const { tree } = treeWith(note);
    const w = validInputWitness({ ...NOTE }, tree.proof(5));
    const c = commitmentOf(note);
    const bad = {
      ...w.input,
      mint_lo: note.mintLo.toString(),
      merkle_root: tree.root.toString(),
      note_commitment: c.toString(),
      nullifier: noteNullifier(c, NOTE.noteInnerHash).toString(),
    };
    await expect(calculateWitness('valid_input', bad)).rejects.toThrow(
      num2BitsAssert('NoteOwnership', 'mintLoBits.in <== mint_lo'),
    );
  });

  it('rejects a wrong nullifier', async () => {
    const { w } = validInput();
    const bad = { ...w.input, nullifier: (w.derived.nullifier + 1n).toString() };
    await expect(calculateWitness('valid_input', bad)).rejects.toThrow(NOTE_LINE.nullifier);
    // The nullifier of another inner hash is wrong too.
    const other = { ...w.input, nullifier: noteNullifier(w.derived.noteCommitment, 1n).toString() };
    await expect(calculateWitness('valid_input', other)).rejects.toThrow(NOTE_LINE.nullifier);
  });

  it('rejects a wrong public note commitment', async () => {
    const { w } = validInput();
    const bad = { ...w.input, note_commitment: (w.derived.noteCommitment + 1n).toString() };
    await expect(calculateWitness('valid_input', bad)).rejects.toThrow(NOTE_LINE.commitment);
  });

  it('rejects a non-boolean path index', async () => {
    const { w } = validInput();
    const indices = [...(w.input.path_indices as string[])];
    indices[0] = '2';
    await expect(calculateWitness('valid_input', { ...w.input, path_indices: indices })).rejects.toThrow(
      NOTE_LINE.boolean,
    );
  });

  it('R1CS: the valid witness stops satisfying the constraints when any public input changes', async () => {
    for (const name of CIRCUITS.valid_input.publicInputs) {
      const wire = publicWire('valid_input', name);
      const tampered = setWire(validWtns, wire, getWire(validWtns, wire) + 1n);
      expect(await r1csSatisfied('valid_input', tampered), name).toBe(false);
    }
  });

  it('R1CS: the valid witness stops satisfying the constraints when a private input changes', async () => {
    // Private inputs follow the public ones: amount, spending_key, note_inner_hash, path_elements[20], path_indices[20].
    const first = CIRCUITS.valid_input.publicInputs.length + 1;
    for (const wire of [first, first + 1, first + 2, first + 3, first + 3 + 20]) {
      const tampered = setWire(validWtns, wire, getWire(validWtns, wire) + 1n);
      expect(await r1csSatisfied('valid_input', tampered), `wire ${wire}`).toBe(false);
    }
  });
});
