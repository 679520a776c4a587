/**
 * Circuit inputs of VALID_JOIN_SPLIT v2 (circuits/valid_join_split_v2.circom) from the notes a
 * wallet consumes and the amounts it creates. Pure and synchronous, like witness.ts: a request the
 * circuit would reject (value not conserved, mixed mints or owners, a note twice, a path to another
 * root) fails here with a ProverInputError before any proving.
 */
import {
  JOIN_SPLIT_MAX_INPUTS,
  JOIN_SPLIT_MAX_OUTPUTS,
  joinSplitMemoHash,
  joinSplitOutputInner,
  noteCommitment,
  noteNullifier,
  openingHash,
  ownerCommitment,
  validJoinSplitPublicSignals,
  TREE_DEPTH,
} from '@nightjar/crypto';
import { U64_MAX } from '@nightjar/protocol';

import { noteParts, ProverInputError, type CircuitInput, type InclusionPath } from './witness.js';

export interface JoinSplitInputNote {
  amount: bigint;
  noteInnerHash: bigint;
  path: InclusionPath;
  /** When given, the root the path leads to must equal it. */
  merkleRoot?: bigint;
}

export interface ValidJoinSplitParams {
  /** The owner's spending key: every input and output is its. */
  spendingKey: bigint;
  /** 32-byte mint of every input and output. */
  mint: Uint8Array;
  /** 1 to 4 notes, consumed. Input 0's inner hash seeds the outputs' inner hashes. */
  inputs: readonly JoinSplitInputNote[];
  /** Amount per output slot (at most 8 slots); 0n leaves a slot empty. Must sum to the inputs'. */
  outputAmounts: readonly bigint[];
  /** The shard (tree_id) each output slot is appended to, as in `outputAmounts`; bound by the proof. */
  outputTreeIds: readonly number[];
  /** The sealed note memo stored with the transaction (its hash is a public input). */
  memo: Uint8Array;
}

export interface JoinSplitOutputWitness {
  slot: number;
  amount: bigint;
  inner: bigint;
  commitment: bigint;
  nullifier: bigint;
}

export interface JoinSplitWitness {
  input: CircuitInput;
  publicInputs: bigint[];
  /** Per input, in slot order: the root its path leads to and its nullifier. */
  inputs: { merkleRoot: bigint; nullifier: bigint }[];
  /** Present (non-zero) outputs, in slot order. */
  outputs: JoinSplitOutputWitness[];
}

const zeros = (n: number) => Array<string>(n).fill('0');

export function validJoinSplitWitness(p: ValidJoinSplitParams): JoinSplitWitness {
  if (p.inputs.length < 1 || p.inputs.length > JOIN_SPLIT_MAX_INPUTS)
    throw new ProverInputError(`a join-split consumes 1 to ${JOIN_SPLIT_MAX_INPUTS} notes`);
  if (p.outputAmounts.length < 1 || p.outputAmounts.length > JOIN_SPLIT_MAX_OUTPUTS)
    throw new ProverInputError(`a join-split creates 1 to ${JOIN_SPLIT_MAX_OUTPUTS} notes`);
  const parts = p.inputs.map((i) => {
    const c = noteParts(
      { mint: p.mint, amount: i.amount, spendingKey: p.spendingKey, noteInnerHash: i.noteInnerHash },
      i.path,
    );
    if (i.merkleRoot !== undefined && c.merkleRoot !== i.merkleRoot)
      throw new ProverInputError('an inclusion path does not lead to its expected merkle root');
    return c;
  });
  if (new Set(parts.map((c) => c.nullifier)).size !== parts.length)
    throw new ProverInputError('a note is given twice');
  const inSum = parts.reduce((s, c) => s + c.amount, 0n);
  const amounts = [
    ...p.outputAmounts,
    ...Array<bigint>(JOIN_SPLIT_MAX_OUTPUTS - p.outputAmounts.length).fill(0n),
  ];
  for (const a of amounts)
    if (typeof a !== 'bigint' || a < 0n || a > U64_MAX)
      throw new ProverInputError('every output amount must be a u64 bigint');
  const outSum = amounts.reduce((s, a) => s + a, 0n);
  if (outSum !== inSum)
    throw new ProverInputError(`outputs (${outSum}) must add up to the inputs (${inSum}) exactly`);

  const { mintLo, mintHi } = parts[0]!;
  const owner = ownerCommitment(p.spendingKey);
  const parentInner = p.inputs[0]!.noteInnerHash;
  const outputs: JoinSplitOutputWitness[] = [];
  const commitments = amounts.map((amount, slot) => {
    if (amount === 0n) return 0n;
    const inner = joinSplitOutputInner(parentInner, slot);
    const commitment = noteCommitment({ mintLo, mintHi, amount, openingHash: openingHash(owner, inner) });
    outputs.push({ slot, amount, inner, commitment, nullifier: noteNullifier(commitment, inner) });
    return commitment;
  });
  if (p.outputTreeIds.length !== p.outputAmounts.length)
    throw new ProverInputError('give one output tree_id per output amount');
  const memoHash = joinSplitMemoHash(
    p.memo,
    amounts.map((a, j) => (a === 0n ? undefined : p.outputTreeIds[j])),
  );
  const inputs = parts.map((c) => ({ merkleRoot: c.merkleRoot, nullifier: c.nullifier }));
  const publicInputs = validJoinSplitPublicSignals({ inputs, outputs: commitments, memoHash });
  const unused = JOIN_SPLIT_MAX_INPUTS - parts.length;
  const input: CircuitInput = {
    merkle_roots: publicInputs.slice(0, JOIN_SPLIT_MAX_INPUTS).map(String),
    nullifiers: publicInputs.slice(JOIN_SPLIT_MAX_INPUTS, 2 * JOIN_SPLIT_MAX_INPUTS).map(String),
    output_commitments: commitments.map(String),
    memo_hash: memoHash.toString(),
    spending_key: p.spendingKey.toString(),
    mint_lo: mintLo.toString(),
    mint_hi: mintHi.toString(),
    in_amounts: [...parts.map((c) => c.amount.toString()), ...zeros(unused)],
    in_inner_hashes: [...parts.map((c) => c.privateSignals.note_inner_hash), ...zeros(unused)],
    path_elements: [
      ...parts.map((c) => c.privateSignals.path_elements),
      ...Array.from({ length: unused }, () => zeros(TREE_DEPTH)),
    ],
    path_indices: [
      ...parts.map((c) => c.privateSignals.path_indices),
      ...Array.from({ length: unused }, () => zeros(TREE_DEPTH)),
    ],
    out_amounts: amounts.map(String),
  };
  return { input, publicInputs, inputs, outputs };
}
