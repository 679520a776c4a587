/**
 * Circuit inputs of the two lock proofs, whose public signals are both [use_tag, merkle_root,
 * nullifier]: VALID_INPUT v2 (circuits/valid_input_v2.circom), which the owner proves for one
 * order with the spending key, and VALID_LOCK (circuits/valid_lock.circom), which the engine
 * proves for a partially filled order's change note, knowing its opening but not the key.
 */
import {
  changeOutputInner,
  orderDigest,
  ownerCommitment,
  noteUseTag,
  type OrderTerms,
} from '@nightjar/crypto';

import {
  checkedTerms,
  fail,
  field,
  noteInTree,
  split32,
  termSignals,
  u64,
  type Halves,
} from './witness-v2.js';
import type { CircuitInput, InclusionPath } from './witness.js';

export interface LockWitness {
  input: CircuitInput;
  /** [use_tag, merkle_root, nullifier], the proof's public signals in order. */
  publicInputs: [bigint, bigint, bigint];
  derived: {
    noteCommitment: bigint;
    noteInnerHash: bigint;
    nullifier: bigint;
    merkleRoot: bigint;
    orderDigest: bigint;
    useTag: bigint;
  };
}

/** Where the locked note is and what it holds (both lock proofs). */
interface NoteLocation {
  /** 32-byte mint: the quote mint for a bid, the base mint for an ask. */
  mint: Uint8Array;
  /** The note's value (non-zero u64). */
  amount: bigint;
  path: InclusionPath;
  /** When given, the root the path leads to must equal it. */
  merkleRoot?: bigint;
}

interface LockedNote extends NoteLocation {
  owner: bigint;
  inner: bigint;
  terms: OrderTerms;
}

/** The note, its order's digest and the use tag binding the two; shared by both builders. */
function lockedNote(n: LockedNote) {
  const mint: Halves = split32(n.mint, 'mint');
  const amount = u64(n.amount, 'amount');
  if (amount === 0n) fail('amount_zero', 'a note of value 0 cannot be locked');
  const terms = checkedTerms(n.terms);
  const note = noteInTree({
    mint,
    amount,
    owner: n.owner,
    inner: n.inner,
    path: n.path,
    merkleRoot: n.merkleRoot,
  });
  const digest = orderDigest(terms);
  const useTag = noteUseTag(note.commitment, n.inner, digest);
  const derived = {
    noteCommitment: note.commitment,
    noteInnerHash: n.inner,
    nullifier: note.nullifier,
    merkleRoot: note.merkleRoot,
    orderDigest: digest,
    useTag,
  };
  const input: CircuitInput = {
    merkle_root: note.merkleRoot.toString(),
    nullifier: note.nullifier.toString(),
    note_commitment: note.commitment.toString(),
    mint_lo: mint.lo.toString(),
    mint_hi: mint.hi.toString(),
    amount: amount.toString(),
    ...note.signals,
    ...termSignals(terms),
  };
  return {
    input,
    derived,
    publicInputs: [useTag, note.merkleRoot, note.nullifier] as [bigint, bigint, bigint],
  };
}

export interface ValidInputV2Params extends NoteLocation {
  spendingKey: bigint;
  noteInnerHash: bigint;
  /** The order this proof backs, exactly as intake will recompute its digest. */
  order: OrderTerms;
}

export function validInputV2Witness(p: ValidInputV2Params): LockWitness {
  const spendingKey = field(p.spendingKey, 'spendingKey');
  const inner = field(p.noteInnerHash, 'noteInnerHash');
  const w = lockedNote({ ...p, owner: ownerCommitment(spendingKey), inner, terms: p.order });
  w.input = { ...w.input, spending_key: spendingKey.toString(), note_inner_hash: inner.toString() };
  return w;
}

/** A change note: its owner and the inner of the note it was made from. */
export interface ValidLockParams extends NoteLocation {
  ownerCommitment: bigint;
  parentInner: bigint;
  /** The remainder's terms: the order's, with the amount left (non-zero). */
  remainder: OrderTerms;
}

export function validLockWitness(p: ValidLockParams): LockWitness {
  const owner = field(p.ownerCommitment, 'ownerCommitment');
  const parentInner = field(p.parentInner, 'parentInner');
  const terms = checkedTerms(p.remainder);
  if (terms.amount === 0n) fail('remainder_empty', 'a remainder with nothing left cannot be locked');
  const inner = changeOutputInner(parentInner, orderDigest(terms));
  const w = lockedNote({ ...p, owner, inner, terms });
  w.input = { ...w.input, owner_commitment: owner.toString(), parent_inner: parentInner.toString() };
  return w;
}
