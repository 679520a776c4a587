/**
 * The note parts every note circuit derives from a note, its keys and an inclusion path
 * (VALID_JOIN_SPLIT builds on them), and the shared input types. Pure and synchronous: the prover
 * uses them on the calling thread so that bad inputs fail fast with a typed error.
 */
import {
  TREE_DEPTH,
  computeMerkleRoot as foldMerklePath,
  noteCommitment,
  noteNullifier,
  openingHash,
  ownerCommitment,
} from '@nightjar/crypto';
import { FIELD_MODULUS, U64_MAX, mintToFields } from '@nightjar/protocol';

/** A note and the secrets that open it. Give the mint either as 32 bytes or as its two halves. */
export interface ProvableNote {
  /** 32-byte mint address; `mint_hi` = bytes 0..16, `mint_lo` = bytes 16..32 (big-endian). */
  mint?: Uint8Array;
  mintLo?: bigint;
  mintHi?: bigint;
  /** u64, non-zero. */
  amount: bigint;
  spendingKey: bigint;
  noteInnerHash: bigint;
}

/**
 * Inclusion path of the note commitment at depth 20: the 20 siblings from the leaf up, and the
 * leaf index (or its bits, least significant first, 1 = the current node is the right child).
 * `MerkleTree.proof(i)` of @nightjar/crypto fits as is.
 */
export interface InclusionPath {
  siblings: readonly bigint[];
  leafIndex?: number | bigint;
  pathIndices?: readonly number[];
}

/** Recipient of a VALID_SPEND: a 32-byte address, split like a mint, or its two halves. */
export type Recipient = Uint8Array | { recipientHi: bigint; recipientLo: bigint };

/** Input signals by name, values as decimal strings (what the witness calculator takes). */
export type CircuitInput = Record<string, string | string[] | string[][]>;

/** Invalid prover input (the note cannot be proved as given). */
export class ProverInputError extends Error {
  override readonly name: string = 'ProverInputError';
}

const TWO_128 = 1n << 128n;

function field(value: unknown, what: string): bigint {
  if (typeof value !== 'bigint' || value < 0n || value >= FIELD_MODULUS) {
    throw new ProverInputError(`${what} must be a field element (bigint in [0, r))`);
  }
  return value;
}

function half(value: unknown, what: string): bigint {
  if (typeof value !== 'bigint' || value < 0n || value >= TWO_128) {
    throw new ProverInputError(`${what} must be a 128-bit unsigned bigint`);
  }
  return value;
}

function split32(bytes: Uint8Array, what: string): { hi: bigint; lo: bigint } {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32)
    throw new ProverInputError(`${what} must be 32 bytes`);
  const { mintHi, mintLo } = mintToFields(bytes);
  return { hi: mintHi, lo: mintLo };
}

function noteMint(note: ProvableNote): { mintLo: bigint; mintHi: bigint } {
  if (note.mint !== undefined) {
    const { hi, lo } = split32(note.mint, 'mint');
    if (
      (note.mintLo !== undefined && note.mintLo !== lo) ||
      (note.mintHi !== undefined && note.mintHi !== hi)
    ) {
      throw new ProverInputError('mint and mintLo/mintHi disagree');
    }
    return { mintLo: lo, mintHi: hi };
  }
  if (note.mintLo === undefined || note.mintHi === undefined) {
    throw new ProverInputError('give the mint as 32 bytes or as mintLo and mintHi');
  }
  return { mintLo: half(note.mintLo, 'mintLo'), mintHi: half(note.mintHi, 'mintHi') };
}

/** The 20 index bits of a path, checked against `leafIndex` when both are given. */
export function pathBits(path: InclusionPath): number[] {
  let bits: number[] | undefined;
  if (path.leafIndex !== undefined) {
    const idx = BigInt(path.leafIndex);
    if (idx < 0n || idx >= 1n << BigInt(TREE_DEPTH)) {
      throw new ProverInputError(`leafIndex must be in [0, 2^${TREE_DEPTH})`);
    }
    bits = Array.from({ length: TREE_DEPTH }, (_, i) => Number((idx >> BigInt(i)) & 1n));
  }
  if (path.pathIndices !== undefined) {
    const given = [...path.pathIndices];
    if (given.length !== TREE_DEPTH || given.some((b) => b !== 0 && b !== 1)) {
      throw new ProverInputError(`pathIndices must be ${TREE_DEPTH} bits (0 or 1)`);
    }
    if (bits && bits.some((b, i) => b !== given[i])) {
      throw new ProverInputError('pathIndices disagree with leafIndex');
    }
    bits = given;
  }
  if (!bits) throw new ProverInputError('the inclusion path needs leafIndex or pathIndices');
  return bits;
}

/**
 * Everything a note circuit derives from a note and its path: mint halves, commitment, nullifier,
 * the root the path leads to, and the private signals (`spending_key`, `note_inner_hash`, path).
 */
export function noteParts(note: ProvableNote, path: InclusionPath) {
  const { mintLo, mintHi } = noteMint(note);
  if (typeof note.amount !== 'bigint' || note.amount <= 0n || note.amount > U64_MAX) {
    throw new ProverInputError('amount must be a non-zero u64 bigint');
  }
  const amount = note.amount;
  const spendingKey = field(note.spendingKey, 'spendingKey');
  const inner = field(note.noteInnerHash, 'noteInnerHash');
  if (!Array.isArray(path.siblings) || path.siblings.length !== TREE_DEPTH) {
    throw new ProverInputError(`the inclusion path needs exactly ${TREE_DEPTH} siblings`);
  }
  const siblings = path.siblings.map((s, i) => field(s, `siblings[${i}]`));
  const bits = pathBits(path);

  const commitment = noteCommitment({
    mintLo,
    mintHi,
    amount,
    openingHash: openingHash(ownerCommitment(spendingKey), inner),
  });
  const nullifier = noteNullifier(commitment, inner);
  const merkleRoot = foldMerklePath(commitment, bits, siblings);
  const privateSignals = {
    spending_key: spendingKey.toString(),
    note_inner_hash: inner.toString(),
    path_elements: siblings.map(String),
    path_indices: bits.map(String),
  };
  return { mintLo, mintHi, amount, commitment, nullifier, merkleRoot, privateSignals };
}

/** Splits a recipient into its two 128-bit halves. */
export function recipientToFields(recipient: Recipient): { recipientHi: bigint; recipientLo: bigint } {
  if (recipient instanceof Uint8Array) {
    const { hi, lo } = split32(recipient, 'recipient');
    return { recipientHi: hi, recipientLo: lo };
  }
  return {
    recipientHi: half(recipient.recipientHi, 'recipientHi'),
    recipientLo: half(recipient.recipientLo, 'recipientLo'),
  };
}
