/**
 * VALID_SPEND v2 through its compiled witness calculator and r1cs: a withdrawal of any amount up
 * to the note's value, the rest to a change note of the same mint and owner (inner Poseidon(9,
 * inner)), 0 in change_commitment exactly when nothing is left.
 */
import {
  MerkleTree,
  NOTE_MEMO_BYTES,
  VALID_SPEND_V2_PUBLIC_INPUTS,
  deriveNote,
  noteCommitment,
  openingHash,
  ownerCommitment,
  poseidon,
  spendChangeMemoHash,
  withdrawalChangeInner,
} from '@nightjar/crypto';
import { mintToFields } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';

import { validSpendV2Witness, type ValidSpendV2Params } from '../src/spend-witness-v2.js';
import { assertAt, getWire, num2BitsAssert, setWire } from './helpers.js';
import { ATTACKER, BID, BID_KEY, QUOTE_MINT } from './match-fixture.js';
import { rawCommitment } from './match-fixture.js';
import { circuitV2Suite, r1csSatisfiedV2, witnessV2 } from './v2-helpers.js';

const F = 'valid_spend_v2.circom';
const LINE = {
  change: assertAt('ValidSpendV2', F, 'change_commitment === (1 - empty.out) * changeNote.out'),
  nonZero: assertAt('NonZero', 'settlement_v2.circom', 'in * inv === 1'),
  changeBits: num2BitsAssert('ValidSpendV2', 'changeBits.in <== change', F),
};

const VALUE = 10_000n;
const OWNER = ownerCommitment(BID_KEY);
const QUOTE = mintToFields(QUOTE_MINT);
const RECIPIENT = Uint8Array.from({ length: 32 }, (_, i) => 0xc0 ^ i);
const MEMO = Uint8Array.from({ length: NOTE_MEMO_BYTES }, (_, i) => (i * 7) & 0xff);
const CHANGE_SHARD = 3;
const tree = new MerkleTree();
tree.append(1n);
tree.append(
  deriveNote({ mint: QUOTE_MINT, amount: VALUE, ownerCommitment: OWNER, noteInnerHash: BID.inner })
    .noteCommitment,
);

const spend = (amount: bigint): ValidSpendV2Params => ({
  mint: QUOTE_MINT,
  noteAmount: VALUE,
  spendingKey: BID_KEY,
  noteInnerHash: BID.inner,
  path: { siblings: tree.proof(1).siblings, leafIndex: 1 },
  merkleRoot: tree.root,
  amount,
  recipient: RECIPIENT,
  ...(amount < VALUE ? { change: { treeId: CHANGE_SHARD, memo: MEMO } } : {}),
});

/** An honest 2,500 withdrawal with its change_commitment replaced (and maybe the amount). */
const forged = (changeCommitment: bigint, amount = 2_500n) =>
  witnessV2('valid_spend_v2', {
    ...validSpendV2Witness(spend(amount)).input,
    change_commitment: changeCommitment.toString(),
  });
const changeOf = (amount: bigint, owner = OWNER, inner = withdrawalChangeInner(BID.inner)) =>
  rawCommitment(QUOTE, amount, owner, inner);

describe('VALID_SPEND v2 circuit', () => {
  circuitV2Suite('valid_spend_v2', 7_435);

  it.each([
    ['a partial withdrawal', 2_500n],
    ['one unit', 1n],
    ['the whole note (no change)', VALUE],
  ])('honest: %s', async (_label, amount) => {
    const w = validSpendV2Witness(spend(amount));
    const wtns = await witnessV2('valid_spend_v2', w.input);
    expect(await r1csSatisfiedV2('valid_spend_v2', wtns)).toBe(true);
    expect(VALID_SPEND_V2_PUBLIC_INPUTS.map((_, i) => getWire(wtns, i + 1))).toEqual(w.publicInputs);
    const rest = VALUE - amount;
    const inner = poseidon([9n, BID.inner]);
    const expected =
      rest === 0n
        ? 0n
        : noteCommitment({
            mintLo: QUOTE.mintLo,
            mintHi: QUOTE.mintHi,
            amount: rest,
            openingHash: openingHash(OWNER, inner),
          });
    expect(w.publicInputs[7]).toBe(expected);
    expect(w.publicInputs[8]).toBe(
      rest === 0n ? 0n : spendChangeMemoHash({ treeId: CHANGE_SHARD, memo: MEMO }),
    );
    expect(w.change).toMatchObject({ amount: rest, commitment: expected });
  });

  it('rejects a change that is not the owner’s, not the rest, or not its inner', async () => {
    await expect(forged(changeOf(7_500n, ATTACKER))).rejects.toThrow(LINE.change);
    await expect(forged(changeOf(7_501n))).rejects.toThrow(LINE.change);
    await expect(forged(changeOf(7_499n))).rejects.toThrow(LINE.change);
    await expect(forged(changeOf(7_500n, OWNER, poseidon([4n, BID.inner, 2n])))).rejects.toThrow(LINE.change);
  });

  it('rejects a rest left out (0) and a change appended when nothing is left', async () => {
    await expect(forged(0n)).rejects.toThrow(LINE.change);
    await expect(forged(changeOf(0n), VALUE)).rejects.toThrow(LINE.change);
  });

  it('rejects a zero withdrawal and one above the note’s value', async () => {
    const input = validSpendV2Witness(spend(2_500n)).input;
    await expect(witnessV2('valid_spend_v2', { ...input, amount: '0' })).rejects.toThrow(LINE.nonZero);
    await expect(witnessV2('valid_spend_v2', { ...input, amount: (VALUE + 1n).toString() })).rejects.toThrow(
      LINE.changeBits,
    );
  });

  it('every public input is constrained: changing any one breaks the r1cs', async () => {
    const wtns = await witnessV2('valid_spend_v2', validSpendV2Witness(spend(2_500n)).input);
    for (let i = 0; i < VALID_SPEND_V2_PUBLIC_INPUTS.length; i++)
      expect(await r1csSatisfiedV2('valid_spend_v2', setWire(wtns, i + 1, getWire(wtns, i + 1) + 1n))).toBe(
        false,
      );
  });

  it('binds the change’s shard and memo: another change_memo_hash does not satisfy the r1cs', async () => {
    const wtns = await witnessV2('valid_spend_v2', validSpendV2Witness(spend(2_500n)).input);
    const wire = VALID_SPEND_V2_PUBLIC_INPUTS.indexOf('change_memo_hash') + 1;
    expect(wire).toBe(9); // last, so the first eight keep their positions
    const junk = new Uint8Array(NOTE_MEMO_BYTES).fill(0xee);
    for (const other of [
      spendChangeMemoHash({ treeId: CHANGE_SHARD, memo: junk }),
      spendChangeMemoHash({ treeId: CHANGE_SHARD + 1, memo: MEMO }),
      0n,
    ])
      expect(await r1csSatisfiedV2('valid_spend_v2', setWire(wtns, wire, other))).toBe(false);
  });

  it('the builder refuses what the circuit would, with a stable code', () => {
    expect(() => validSpendV2Witness(spend(0n))).toThrow(expect.objectContaining({ code: 'amount_zero' }));
    expect(() => validSpendV2Witness(spend(VALUE + 1n))).toThrow(
      expect.objectContaining({ code: 'insufficient_note' }),
    );
    expect(() => validSpendV2Witness({ ...spend(1n), noteAmount: VALUE - 1n })).toThrow(
      expect.objectContaining({ code: 'root_mismatch' }),
    );
    // The change's shard and memo exactly when there is change, the memo a note memo's length.
    const { change: _change, ...noChange } = spend(2_500n);
    expect(() => validSpendV2Witness(noChange)).toThrow(expect.objectContaining({ code: 'memo' }));
    expect(() => validSpendV2Witness({ ...spend(VALUE), change: { treeId: 0, memo: MEMO } })).toThrow(
      expect.objectContaining({ code: 'memo' }),
    );
    expect(() =>
      validSpendV2Witness({ ...spend(2_500n), change: { treeId: 0, memo: MEMO.subarray(1) } }),
    ).toThrow(expect.objectContaining({ code: 'memo' }));
  });
});
