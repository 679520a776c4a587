/**
 * Circuit input of VALID_SPEND v2 (circuits/valid_spend_v2.circom): withdraw `amount` of a note,
 * the rest staying with the owner as a change note of the same mint, inner Poseidon(9, inner).
 */
import {
  NOTE_MEMO_BYTES,
  noteCommitment,
  noteNullifier,
  openingHash,
  ownerCommitment,
  spendChangeMemoHash,
  withdrawalChangeInner,
} from '@nightjar/crypto';

import { fail, field, noteInTree, split32, u64 } from './witness-v2.js';
import { recipientToFields, type CircuitInput, type InclusionPath, type Recipient } from './witness.js';

export interface ValidSpendV2Params {
  mint: Uint8Array;
  /** The note's value. */
  noteAmount: bigint;
  spendingKey: bigint;
  noteInnerHash: bigint;
  path: InclusionPath;
  merkleRoot?: bigint;
  /** Paid out: non-zero, at most the note's value. */
  amount: bigint;
  recipient: Recipient;
  /**
   * The shard the change is appended to and its note memo (the `change` of the withdraw
   * transaction): required when the note is not paid out whole, absent when it is. The proof binds
   * both (change_memo_hash), so the memo is made before the proof.
   */
  change?: { treeId: number; memo: Uint8Array };
}

export interface ValidSpendV2Witness {
  input: CircuitInput;
  /** In VALID_SPEND_V2_PUBLIC_INPUTS order. */
  publicInputs: bigint[];
  /** The change note (amount 0 and commitment 0 when the whole note is paid out). */
  change: { amount: bigint; inner: bigint; commitment: bigint; nullifier: bigint };
  nullifier: bigint;
  merkleRoot: bigint;
}

export function validSpendV2Witness(p: ValidSpendV2Params): ValidSpendV2Witness {
  const mint = split32(p.mint, 'mint');
  const noteAmount = u64(p.noteAmount, 'noteAmount');
  const amount = u64(p.amount, 'amount');
  if (amount === 0n) fail('amount_zero', 'a withdrawal pays a non-zero amount');
  if (amount > noteAmount) fail('insufficient_note', `a note of ${noteAmount} cannot pay ${amount}`);
  const spendingKey = field(p.spendingKey, 'spendingKey');
  const inner = field(p.noteInnerHash, 'noteInnerHash');
  const owner = ownerCommitment(spendingKey);
  const note = noteInTree({ mint, amount: noteAmount, owner, inner, path: p.path, merkleRoot: p.merkleRoot });
  let recipient: { recipientHi: bigint; recipientLo: bigint };
  try {
    recipient = recipientToFields(p.recipient);
  } catch (err) {
    fail('mint', (err as Error).message);
  }

  const changeAmount = noteAmount - amount;
  const changeInner = withdrawalChangeInner(inner);
  const changeNote = noteCommitment({
    mintLo: mint.lo,
    mintHi: mint.hi,
    amount: changeAmount,
    openingHash: openingHash(owner, changeInner),
  });
  const changeCommitment = changeAmount === 0n ? 0n : changeNote;
  if ((changeAmount !== 0n) !== (p.change !== undefined))
    fail(
      'memo',
      changeAmount === 0n
        ? 'a withdrawal of the whole note has no change: give no change shard or memo'
        : 'a withdrawal with change needs the change shard and memo',
    );
  if (p.change && (!(p.change.memo instanceof Uint8Array) || p.change.memo.length !== NOTE_MEMO_BYTES))
    fail('memo', `the change memo is ${NOTE_MEMO_BYTES} bytes`);
  let changeMemoHash: bigint;
  try {
    changeMemoHash = spendChangeMemoHash(p.change);
  } catch (err) {
    fail('memo', (err as Error).message);
  }
  const publicInputs = [
    note.merkleRoot,
    note.nullifier,
    mint.lo,
    mint.hi,
    amount,
    recipient.recipientHi,
    recipient.recipientLo,
    changeCommitment,
    changeMemoHash,
  ];
  const input: CircuitInput = {
    merkle_root: note.merkleRoot.toString(),
    nullifier: note.nullifier.toString(),
    mint_lo: mint.lo.toString(),
    mint_hi: mint.hi.toString(),
    amount: amount.toString(),
    recipient_hi: recipient.recipientHi.toString(),
    recipient_lo: recipient.recipientLo.toString(),
    change_commitment: changeCommitment.toString(),
    change_memo_hash: changeMemoHash.toString(),
    note_amount: noteAmount.toString(),
    spending_key: spendingKey.toString(),
    note_inner_hash: inner.toString(),
    ...note.signals,
  };
  return {
    input,
    publicInputs,
    change: {
      amount: changeAmount,
      inner: changeInner,
      commitment: changeCommitment,
      nullifier: changeAmount === 0n ? 0n : noteNullifier(changeNote, changeInner),
    },
    nullifier: note.nullifier,
    merkleRoot: note.merkleRoot,
  };
}
