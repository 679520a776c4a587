/**
 * `join_split`: consume up to 4 notes of one mint and one owner and create up to 8 of the same
 * mint and owner (a split, a merge, or both). Signed by any key (a wallet uses a fresh one, so
 * nothing links it to a funding address). The ledger never learns the mint, the amounts or the
 * owner: a VALID_JOIN_SPLIT proof (judged at admission, see proof-checks.ts) binds the nullifiers,
 * roots, output commitments and memo, and proves value conserved. Inputs under a live lock are
 * refused, so nobody can pull a note out from under an order; the memo (sealed to the owner's
 * viewing key) is stored for recovery from the seed.
 */
import { InstructionError } from '@nightjar/protocol/ledger-client';
import type { Args } from './args.js';
import {
  appendOutput,
  HIDDEN_MINT,
  knownRoot,
  requireProof,
  requireShard,
  requireVault,
  type ExecContext,
} from './context.js';

/** The checks before the proof, read-only (admission runs them too, and again when it lands). */
export function checkJoinSplit(ctx: ExecContext, args: Args<'join_split'>): void {
  requireVault(ctx);
  const nullifiers = args.inputs.map((i) => i.nullifier);
  if (new Set(nullifiers).size !== nullifiers.length)
    throw new InstructionError('InvalidArgs', 'an input appears twice');
  for (const input of args.inputs) {
    if (ctx.state.nullifierKind(input.nullifier) !== undefined) throw new InstructionError('NoteSpent');
    const lock = ctx.state.lock(input.nullifier);
    if (lock && lock.until_slot > ctx.slot) throw new InstructionError('NoteLocked');
    knownRoot(ctx, input.tree_id, input.merkle_root);
  }
  let last = -1;
  for (const out of args.outputs) {
    if (out.slot <= last) throw new InstructionError('InvalidArgs', 'output slots must strictly increase');
    last = out.slot;
    requireShard(ctx, out.tree_id);
    if (ctx.state.note(out.commitment)) throw new InstructionError('DuplicateCommitment');
  }
  if (new Set(args.outputs.map((o) => o.commitment)).size !== args.outputs.length)
    throw new InstructionError('DuplicateCommitment');
}

export function joinSplit(
  ctx: ExecContext,
  args: Args<'join_split'>,
): { leaves: { tree_id: number; leaf_index: number }[] } {
  checkJoinSplit(ctx, args);
  requireProof(ctx.proofs[0]);
  for (const input of args.inputs) {
    // An expired lock goes with the note it held.
    ctx.state.deleteLock(input.nullifier);
    ctx.state.spendNullifier(input.nullifier, { kind: 'consumed', mint: HIDDEN_MINT }, ctx.slot);
  }
  const leaves = args.outputs.map((out) => ({
    tree_id: out.tree_id,
    leaf_index: appendOutput(ctx, out.tree_id, HIDDEN_MINT, out.commitment),
  }));
  ctx.memos.push({ match_idx: 0, party: 0, memo: args.memo });
  return { leaves };
}
