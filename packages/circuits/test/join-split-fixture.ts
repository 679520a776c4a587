/**
 * The notes VALID_JOIN_SPLIT's witness and proof tests spend: a tree holding the owner's notes, a
 * stranger's note, the owner's note of another mint and a 2^64 note (committed with raw Poseidon).
 */
import { MerkleTree, ownerCommitment, poseidon } from '@nightjar/crypto';
import { U64_MAX, mintToFields } from '@nightjar/protocol';

import type { ValidJoinSplitParams } from '../src/join-split-witness.js';

export const MINT = Uint8Array.from({ length: 32 }, (_, i) => (i * 11 + 3) & 0xff);
export const OTHER_MINT = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 100) & 0xff);
export const SK = 0x5ec7e75ec7e75ec7e7n;
export const OTHER_SK = 0x0de7e0de7e0de7e0n;
export const OWNER = ownerCommitment(SK);
export const STRANGER = ownerCommitment(OTHER_SK);
export const MEMO = Uint8Array.from({ length: 177 }, (_, i) => (i * 29 + 5) & 0xff);

/** Raw Poseidon (no range checks), so that out-of-range amounts can be committed to. */
export function commit(amount: bigint, inner: bigint, owner = OWNER, mint: Uint8Array = MINT): bigint {
  const { mintLo, mintHi } = mintToFields(mint);
  return poseidon([2n, mintLo, mintHi, amount, poseidon([6n, owner, inner])]);
}

export interface TreeNote {
  amount: bigint;
  inner: bigint;
  owner?: bigint;
  mint?: Uint8Array;
  index?: number;
  commitment?: bigint;
}

/** The notes in the tree: the owner's, a stranger's, one of another mint, and a 2^64 one. */
export const NOTES = {
  a: { amount: 8_000n, inner: 0xa1n },
  b: { amount: 3_000n, inner: 0xb2n },
  c: { amount: 1_500n, inner: 0xc3n },
  d: { amount: 500n, inner: 0xd4n },
  max1: { amount: U64_MAX, inner: 0xe5n },
  max2: { amount: U64_MAX, inner: 0xf6n },
  stranger: { amount: 3_000n, inner: 0x57n, owner: STRANGER },
  otherMint: { amount: 3_000n, inner: 0x58n, mint: OTHER_MINT },
  big: { amount: 1n << 64n, inner: 0x59n },
} satisfies Record<string, TreeNote>;
export type Name = keyof typeof NOTES;

export const tree = new MerkleTree();
tree.append(11n);
export const rootBeforeNotes = tree.root;
for (const note of Object.values(NOTES) as TreeNote[]) {
  note.commitment = commit(note.amount, note.inner, note.owner, note.mint);
  note.index = tree.append(note.commitment);
}
tree.append(12n);
export const ROOT = tree.root;
export const note = (name: Name) => NOTES[name] as Required<TreeNote>;

export function params(inputs: Name[], outputAmounts: bigint[], memo = MEMO): ValidJoinSplitParams {
  return {
    spendingKey: SK,
    mint: MINT,
    inputs: inputs.map((n) => ({
      amount: note(n).amount,
      noteInnerHash: note(n).inner,
      path: tree.proof(note(n).index),
    })),
    outputAmounts,
    outputTreeIds: outputAmounts.map(() => 0),
    memo,
  };
}

/** The output shards `params` binds (every output in shard 0), as `joinSplitMemoHash` takes them. */
export const shardsOf = (outputAmounts: readonly bigint[]): (number | undefined)[] =>
  Array.from({ length: 8 }, (_, j) => ((outputAmounts[j] ?? 0n) === 0n ? undefined : 0));
