import { MerkleTree, noteNullifier, openingHash, ownerCommitment, poseidon } from '@nightjar/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CIRCUITS } from '../src/artifacts.js';
import { recipientToFields, validSpendWitness, type ProvableNote } from '../src/witness.js';
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

const MINT = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const RECIPIENT = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);

const NOTE: ProvableNote = {
  mint: MINT,
  amount: 42_000n,
  spendingKey: 0x0badc0ffee0ddf00dn,
  noteInnerHash: 0x5eed5eed5eed5eed5eed5eed5eed5eed5eedn,
};

function fixture() {
  const w0 = validSpendWitness(NOTE, { siblings: Array<bigint>(20).fill(0n), leafIndex: 0 }, RECIPIENT);
  const tree = new MerkleTree();
  tree.append(7n);
  tree.append(8n);
  const index = tree.append(w0.derived.noteCommitment);
  tree.append(9n);
  const w = validSpendWitness(NOTE, tree.proof(index), RECIPIENT);
  return { tree, index, w };
}

const LINE = {
  ...noteOwnershipLines(),
  nullifier: assertAt('ValidSpend', 'valid_spend.circom', 'note.nullifier === nullifier'),
};

describe('VALID_SPEND circuit', () => {
  let validWtns: Uint8Array;

  beforeAll(async () => {
    validWtns = await calculateWitness('valid_spend', fixture().w.input);
  });

  afterAll(terminateCurve);

  it('accepts a valid witness and exposes the public inputs in DESIGN order', async () => {
    const { tree, w } = fixture();
    expect(await r1csSatisfied('valid_spend', validWtns)).toBe(true);
    const names = CIRCUITS.valid_spend.publicInputs;
    expect(names).toEqual([
      'merkle_root',
      'nullifier',
      'mint_lo',
      'mint_hi',
      'amount',
      'recipient_hi',
      'recipient_lo',
    ]);
    expect(names.map((n) => getWire(validWtns, publicWire('valid_spend', n)))).toEqual(w.publicInputs);
    const { recipientHi, recipientLo } = recipientToFields(RECIPIENT);
    // hi = bytes 0..16, lo = bytes 16..32, big-endian (same split as a mint).
    expect(recipientHi).toBe(BigInt('0x' + Buffer.from(RECIPIENT.subarray(0, 16)).toString('hex')));
    expect(recipientLo).toBe(BigInt('0x' + Buffer.from(RECIPIENT.subarray(16)).toString('hex')));
    expect(w.publicInputs).toEqual([
      tree.root,
      noteNullifier(w.derived.noteCommitment, NOTE.noteInnerHash),
      w.derived.mintLo,
      w.derived.mintHi,
      NOTE.amount,
      recipientHi,
      recipientLo,
    ]);
  });

  it('binds the recipient: the valid witness fails the R1CS when recipient_hi or recipient_lo changes', async () => {
    for (const name of ['recipient_hi', 'recipient_lo']) {
      const wire = publicWire('valid_spend', name);
      for (const delta of [1n, 1n << 100n]) {
        const tampered = setWire(validWtns, wire, getWire(validWtns, wire) + delta);
        expect(await r1csSatisfied('valid_spend', tampered), `${name} + ${delta}`).toBe(false);
      }
    }
  });

  it('binds the amount: a different public amount is rejected, and fails the R1CS', async () => {
    const { w } = fixture();
    await expect(
      calculateWitness('valid_spend', { ...w.input, amount: (NOTE.amount + 1n).toString() }),
    ).rejects.toThrow(LINE.root);
    const wire = publicWire('valid_spend', 'amount');
    expect(await r1csSatisfied('valid_spend', setWire(validWtns, wire, NOTE.amount - 1n))).toBe(false);
  });

  it('a different recipient gives a different valid witness (recipient is free, but public)', async () => {
    const { tree, index } = fixture();
    const other = { recipientHi: 1n, recipientLo: (1n << 128n) - 1n };
    const w = validSpendWitness(NOTE, tree.proof(index), other);
    const wtns = await calculateWitness('valid_spend', w.input);
    expect(await r1csSatisfied('valid_spend', wtns)).toBe(true);
    expect(getWire(wtns, publicWire('valid_spend', 'recipient_hi'))).toBe(1n);
    expect(getWire(wtns, publicWire('valid_spend', 'recipient_lo'))).toBe((1n << 128n) - 1n);
  });

  it('rejects a recipient half of 2^128 or more', async () => {
    const { w } = fixture();
    await expect(
      calculateWitness('valid_spend', { ...w.input, recipient_hi: (1n << 128n).toString() }),
    ).rejects.toThrow(
      num2BitsAssert('ValidSpend', 'recipientHiBits.in <== recipient_hi', 'valid_spend.circom'),
    );
  });

  it('rejects a wrong root, key, mint and nullifier', async () => {
    const { w } = fixture();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ merkle_root: (w.derived.merkleRoot ^ 1n).toString() }, LINE.root],
      [{ spending_key: (NOTE.spendingKey + 1n).toString() }, LINE.root],
      [{ mint_lo: (w.derived.mintLo + 1n).toString() }, LINE.root],
      [{ mint_hi: (w.derived.mintHi + 1n).toString() }, LINE.root],
      [{ nullifier: (w.derived.nullifier + 1n).toString() }, LINE.nullifier],
    ];
    for (const [patch, line] of cases) {
      await expect(calculateWitness('valid_spend', { ...w.input, ...patch })).rejects.toThrow(line);
    }
  });

  it('rejects amount 0 and amount 2^64 even with a matching commitment in the tree', async () => {
    for (const [amount, line] of [
      [0n, LINE.nonZero],
      [1n << 64n, num2BitsAssert('NoteOwnership', 'amountBits.in <== amount')],
    ] as const) {
      const { mintLo, mintHi } = fixture().w.derived;
      // Raw Poseidon: the crypto package's noteCommitment refuses amounts outside u64.
      const opening = openingHash(ownerCommitment(NOTE.spendingKey), NOTE.noteInnerHash);
      const c = poseidon([2n, mintLo, mintHi, amount, opening]);
      const tree = new MerkleTree();
      tree.append(c);
      const base = validSpendWitness(NOTE, tree.proof(0), RECIPIENT);
      const bad = {
        ...base.input,
        amount: amount.toString(),
        merkle_root: tree.root.toString(),
        nullifier: noteNullifier(c, NOTE.noteInnerHash).toString(),
      };
      await expect(calculateWitness('valid_spend', bad)).rejects.toThrow(line);
    }
  });
});
