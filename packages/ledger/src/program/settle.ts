/**
 * `settle_batch`: per match, consume the locked inputs, create the outputs (re-locking a partial
 * fill's change note to its order when asked), store the memos; value must balance per mint.
 * Each match runs in its own savepoint, so a bad match fails alone.
 */
import { InstructionError } from '../errors.js';
import type { MatchOutcome } from '../types.js';
import type { Args } from './args.js';
import {
  createNote,
  inSavepoint,
  requireTeeSigner,
  type ExecContext,
  type InstructionResult,
} from './context.js';
import { checkLockable, placeLock, requireLocker } from './locks.js';

type MatchArgs = Args<'settle_batch'>['matches'][number];

export function settleBatch(ctx: ExecContext, args: Args<'settle_batch'>): InstructionResult {
  requireTeeSigner(ctx);
  const seen = new Set<number>();
  for (const m of args.matches) {
    if (seen.has(m.match_idx)) throw new InstructionError('InvalidArgs', 'duplicate match_idx');
    seen.add(m.match_idx);
  }
  const matches: MatchOutcome[] = args.matches.map((m) => {
    const r = inSavepoint(ctx, () => settleMatch(ctx, m));
    return r.ok
      ? { match_idx: m.match_idx, ok: true, output_leaves: r.value }
      : { match_idx: m.match_idx, ok: false, err: r.err.toJSON() };
  });
  return { matches };
}

function settleMatch(ctx: ExecContext, m: MatchArgs): { tree_id: number; leaf_index: number }[] {
  const balance = new Map<string, bigint>();
  const add = (mint: string, v: bigint) => balance.set(mint, (balance.get(mint) ?? 0n) + v);
  if (new Set(m.inputs).size !== m.inputs.length)
    throw new InstructionError('InvalidArgs', 'duplicate input');
  for (const nullifier of m.inputs) {
    if (ctx.state.nullifierKind(nullifier) !== undefined) throw new InstructionError('NoteSpent');
    const lock = ctx.state.lock(nullifier);
    if (!lock) throw new InstructionError('NotLocked');
    requireLocker(ctx, lock);
    if (lock.until_slot <= ctx.slot) throw new InstructionError('LockExpired');
    const note = ctx.state.note(lock.note_commitment);
    if (!note) throw new InstructionError('UnknownNote');
    ctx.state.deleteLock(nullifier);
    ctx.state.spendNullifier(nullifier, note.mint, BigInt(note.amount), 'consumed', ctx.slot);
    ctx.touchedMints.add(note.mint);
    add(note.mint, BigInt(note.amount));
  }
  const leaves: { tree_id: number; leaf_index: number }[] = [];
  for (const out of m.outputs) {
    const amount = BigInt(out.amount);
    const { commitment, leafIndex } = createNote(ctx, out.tree_id, out.mint, amount, out.opening_hash);
    if (out.relock) {
      // The nullifier comes from the TEE: the ledger cannot tie it to the new note (docs/ledger.md).
      const until = checkLockable(ctx, out.relock.nullifier, out.relock.until_slot);
      placeLock(ctx, {
        nullifier: out.relock.nullifier,
        note_commitment: commitment,
        order_id: out.relock.order_id,
        until_slot: until,
      });
    }
    add(out.mint, -amount);
    leaves.push({ tree_id: out.tree_id, leaf_index: leafIndex });
  }
  for (const v of balance.values()) if (v !== 0n) throw new InstructionError('ValueNotConserved');
  m.memos.forEach((memo, party) => ctx.memos.push({ match_idx: m.match_idx, party, memo }));
  return leaves;
}
