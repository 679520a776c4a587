/**
 * VALID_JOIN_SPLIT v2 (packages/circuits/circuits/valid_join_split_v2.circom): the ledger's `join_split`
 * consumes up to 4 notes of one mint and one owner and creates up to 8 of the same mint and owner.
 * Public: the input roots and nullifiers, the output commitments and a hash of the memo. The mint,
 * the amounts and the owner stay private.
 *
 *   output inner j = Poseidon(7, inner of input 0, j)      j = 0..7
 *   memo_hash      = SHA-256("nightjar-join-split-memo-v1" ‖ shards ‖ memo), first byte zeroed,
 *                    where shards is one byte per output slot: its tree_id, 0xff when empty
 *
 * Input 0's note is consumed by the same transaction, so no two join-splits derive the same inners.
 */
import { createHash } from 'node:crypto';
import { bytesToBigInt } from '@nightjar/protocol';
import { ValueRangeError } from './errors.js';
import { assertFieldElement } from './field.js';
import { poseidon } from './poseidon.js';

export const JOIN_SPLIT_MAX_INPUTS = 4;
export const JOIN_SPLIT_MAX_OUTPUTS = 8;
/** Domain tag of a join-split output's inner hash (DESIGN 3 uses tags 1 to 6). */
export const JOIN_SPLIT_INNER_DOMAIN = 7n;
export const JOIN_SPLIT_MEMO_DOMAIN = 'nightjar-join-split-memo-v1';

/** Circom declares the public signals in this order; the verifier takes them in this order. */
export const VALID_JOIN_SPLIT_PUBLIC_INPUTS = [
  ...Array.from({ length: JOIN_SPLIT_MAX_INPUTS }, (_, i) => `merkle_roots[${i}]`),
  ...Array.from({ length: JOIN_SPLIT_MAX_INPUTS }, (_, i) => `nullifiers[${i}]`),
  ...Array.from({ length: JOIN_SPLIT_MAX_OUTPUTS }, (_, j) => `output_commitments[${j}]`),
  'memo_hash',
] as const;

export function joinSplitOutputInner(parentInner: bigint, index: number): bigint {
  assertFieldElement(parentInner, 'parent_inner');
  if (!Number.isInteger(index) || index < 0 || index >= JOIN_SPLIT_MAX_OUTPUTS)
    throw new ValueRangeError(`output index must be 0..${JOIN_SPLIT_MAX_OUTPUTS - 1}`);
  return poseidon([JOIN_SPLIT_INNER_DOMAIN, parentInner, BigInt(index)]);
}

/** Marks an empty output slot in the shard bytes of `joinSplitMemoHash`. */
export const JOIN_SPLIT_NO_SHARD = 0xff;

/**
 * What the proof binds besides its notes: the memo and the shard each output is appended to (the
 * arguments the ledger acts on but the circuit does not see), so a copy of a pending join-split
 * cannot be resent with another memo or its outputs moved to other shards. 248 bits of a
 * domain-separated SHA-256, so always below r. `outputShards` has one entry per output slot (8):
 * the tree_id (0..254), or undefined for an empty slot.
 */
export function joinSplitMemoHash(memo: Uint8Array, outputShards: readonly (number | undefined)[]): bigint {
  if (outputShards.length !== JOIN_SPLIT_MAX_OUTPUTS)
    throw new ValueRangeError(`a join-split has ${JOIN_SPLIT_MAX_OUTPUTS} output slots`);
  const shards = Uint8Array.from(outputShards, (t) => {
    if (t === undefined) return JOIN_SPLIT_NO_SHARD;
    if (!Number.isInteger(t) || t < 0 || t >= JOIN_SPLIT_NO_SHARD)
      throw new ValueRangeError('an output shard must be an integer in 0..254');
    return t;
  });
  const digest = createHash('sha256')
    .update(JOIN_SPLIT_MEMO_DOMAIN, 'ascii')
    .update(shards)
    .update(memo)
    .digest();
  digest[0] = 0;
  return bytesToBigInt(digest);
}

export interface ValidJoinSplitPublic {
  /** Per used input, in slot order: its shard's root and its nullifier (at most 4). */
  inputs: readonly { merkleRoot: bigint; nullifier: bigint }[];
  /** Output commitments by slot (8), 0n where the slot has no output. */
  outputs: readonly bigint[];
  memoHash: bigint;
}

/** The public signals in circuit order (`VALID_JOIN_SPLIT_PUBLIC_INPUTS`); unused input slots are 0. */
export function validJoinSplitPublicSignals(p: ValidJoinSplitPublic): bigint[] {
  if (p.inputs.length < 1 || p.inputs.length > JOIN_SPLIT_MAX_INPUTS)
    throw new ValueRangeError(`a join-split has 1 to ${JOIN_SPLIT_MAX_INPUTS} inputs`);
  if (p.outputs.length !== JOIN_SPLIT_MAX_OUTPUTS)
    throw new ValueRangeError(`a join-split has ${JOIN_SPLIT_MAX_OUTPUTS} output slots`);
  const pad = (xs: bigint[]) => [...xs, ...Array<bigint>(JOIN_SPLIT_MAX_INPUTS - xs.length).fill(0n)];
  return [
    ...pad(p.inputs.map((i) => i.merkleRoot)),
    ...pad(p.inputs.map((i) => i.nullifier)),
    ...p.outputs,
    p.memoHash,
  ];
}
