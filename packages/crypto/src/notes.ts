/**
 * Note formulas of DESIGN.md section 3. Every hash is Poseidon with a domain tag as first input:
 *
 *   owner_commitment = Poseidon(1, spending_key)
 *   opening_hash     = Poseidon(6, owner_commitment, note_inner_hash)
 *   note_commitment  = Poseidon(2, mint_lo, mint_hi, amount, opening_hash)
 *   deposit inner    = Poseidon(3, note_secret, deposit_nonce)
 *   output inner     = Poseidon(4, parent_inner, role)   role 1 trade-out, 2 change, 3 fee
 *   nullifier        = Poseidon(5, note_commitment, note_inner_hash)
 */
import { mintToFields } from '@nightjar/protocol';
import { ValueRangeError } from './errors.js';
import { assertFieldElement, assertU128, assertU64 } from './field.js';
import { poseidon } from './poseidon.js';

/** Domain tags (first Poseidon input) of the note formulas. */
export const NoteDomain = {
  ownerCommitment: 1n,
  noteCommitment: 2n,
  depositInner: 3n,
  outputInner: 4n,
  nullifier: 5n,
  openingHash: 6n,
} as const;

/** Which output of a match a derived note is. */
export const OutputRole = { tradeOut: 1, change: 2, fee: 3 } as const;
export type OutputRole = (typeof OutputRole)[keyof typeof OutputRole];

export interface NoteCommitmentInput {
  /** Bytes 16..32 of the mint as a big-endian integer. */
  mintLo: bigint;
  /** Bytes 0..16 of the mint as a big-endian integer. */
  mintHi: bigint;
  /** u64. Zero hashes fine, but VALID_INPUT and VALID_SPEND only accept notes with amount > 0. */
  amount: bigint;
  openingHash: bigint;
}

export function ownerCommitment(spendingKey: bigint): bigint {
  assertFieldElement(spendingKey, 'spending_key');
  return poseidon([NoteDomain.ownerCommitment, spendingKey]);
}

export function openingHash(ownerCommitmentValue: bigint, noteInnerHash: bigint): bigint {
  assertFieldElement(ownerCommitmentValue, 'owner_commitment');
  assertFieldElement(noteInnerHash, 'note_inner_hash');
  return poseidon([NoteDomain.openingHash, ownerCommitmentValue, noteInnerHash]);
}

/**
 * Poseidon(2, mint_lo, mint_hi, amount, opening_hash). The mint halves must be 128-bit (they come
 * from a 32-byte mint) and the amount a u64, so no out-of-range value can alias a real note.
 */
export function noteCommitment(note: NoteCommitmentInput): bigint {
  assertU128(note.mintLo, 'mint_lo');
  assertU128(note.mintHi, 'mint_hi');
  assertU64(note.amount, 'amount');
  assertFieldElement(note.openingHash, 'opening_hash');
  return poseidon([NoteDomain.noteCommitment, note.mintLo, note.mintHi, note.amount, note.openingHash]);
}

export function depositInner(noteSecret: bigint, depositNonce: bigint): bigint {
  assertFieldElement(noteSecret, 'note_secret');
  assertFieldElement(depositNonce, 'deposit_nonce');
  return poseidon([NoteDomain.depositInner, noteSecret, depositNonce]);
}

export function outputInner(parentInner: bigint, role: OutputRole): bigint {
  assertFieldElement(parentInner, 'parent_inner');
  if (role !== OutputRole.tradeOut && role !== OutputRole.change && role !== OutputRole.fee) {
    throw new ValueRangeError('output role must be 1 (trade-out), 2 (change) or 3 (fee)');
  }
  return poseidon([NoteDomain.outputInner, parentInner, BigInt(role)]);
}

export function noteNullifier(noteCommitmentValue: bigint, noteInnerHash: bigint): bigint {
  assertFieldElement(noteCommitmentValue, 'note_commitment');
  assertFieldElement(noteInnerHash, 'note_inner_hash');
  return poseidon([NoteDomain.nullifier, noteCommitmentValue, noteInnerHash]);
}

export interface NoteOpening {
  /** 32-byte mint address. */
  mint: Uint8Array;
  amount: bigint;
  ownerCommitment: bigint;
  noteInnerHash: bigint;
}

export interface DerivedNote {
  openingHash: bigint;
  noteCommitment: bigint;
  nullifier: bigint;
}

/** Everything public about a note, recomputed from its secret opening (what intake checks). */
export function deriveNote(opening: NoteOpening): DerivedNote {
  if (!(opening.mint instanceof Uint8Array) || opening.mint.length !== 32) {
    throw new ValueRangeError('mint must be 32 bytes');
  }
  const { mintHi, mintLo } = mintToFields(opening.mint);
  const opened = openingHash(opening.ownerCommitment, opening.noteInnerHash);
  const commitment = noteCommitment({ mintLo, mintHi, amount: opening.amount, openingHash: opened });
  return {
    openingHash: opened,
    noteCommitment: commitment,
    nullifier: noteNullifier(commitment, opening.noteInnerHash),
  };
}
