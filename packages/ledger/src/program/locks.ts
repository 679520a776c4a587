/**
 * Locking a note to an order. One set of rules for every way a lock is made: `lock_note`,
 * each entry of `lock_notes`, and a settlement output's `relock`.
 */
import type { LockRow } from '../chain-state.js';
import { InstructionError } from '../errors.js';
import type { Args } from './args.js';
import { knownRoot, requireProof, type ExecContext, type ProofVerdict } from './context.js';

export const LOCK_TTL_CEILING_SLOTS = 4500;

/**
 * Refuses a spent note, a note under a live lock, or an expiry outside (slot, slot + 4500].
 * An expired lock does not count: it may be replaced. Returns the expiry slot.
 */
export function checkLockable(ctx: ExecContext, nullifier: string, untilSlot: bigint): number {
  if (ctx.state.nullifierKind(nullifier) !== undefined) throw new InstructionError('NoteSpent');
  const existing = ctx.state.lock(nullifier);
  if (existing && existing.until_slot > ctx.slot) throw new InstructionError('NoteLocked');
  if (untilSlot <= BigInt(ctx.slot) || untilSlot > BigInt(ctx.slot + LOCK_TTL_CEILING_SLOTS))
    throw new InstructionError('BadLockExpiry');
  return Number(untilSlot);
}

/** Writes a lock that passed `checkLockable`, replacing an expired one on the same nullifier. */
export function placeLock(
  ctx: ExecContext,
  lock: { nullifier: string; note_commitment: string; order_id: string; until_slot: number },
): void {
  ctx.state.deleteLock(lock.nullifier);
  ctx.state.insertLock({ ...lock, locker: ctx.signer }, ctx.slot);
}

/**
 * Only the key that made a lock may consume or release it: another registered TEE key (a retired
 * one, or a second engine) must not spend or free a note that an order of someone else holds.
 */
export function requireLocker(ctx: ExecContext, lock: LockRow): void {
  if (lock.locker !== ctx.signer)
    throw new InstructionError('Unauthorized', 'only the key that locked the note may consume or release it');
}

/**
 * The checks of one lock request before its proof: a known root, the note in that shard with that
 * mint, and a lockable nullifier. Read-only, so admission runs them too. Returns the expiry slot.
 */
export function checkLockRequest(ctx: ExecContext, args: Args<'lock_note'>): number {
  knownRoot(ctx, args.tree_id, args.merkle_root);
  const note = ctx.state.note(args.note_commitment);
  if (!note || note.tree_id !== args.tree_id) throw new InstructionError('UnknownNote');
  if (note.mint !== args.mint) throw new InstructionError('MintMismatch');
  return checkLockable(ctx, args.nullifier, args.until_slot);
}

/** One proved lock (the signer is already known to be a finalized TEE key). */
export function lockProvedNote(
  ctx: ExecContext,
  args: Args<'lock_note'>,
  verdict: ProofVerdict | undefined,
): void {
  const until = checkLockRequest(ctx, args);
  requireProof(verdict);
  placeLock(ctx, {
    nullifier: args.nullifier,
    note_commitment: args.note_commitment,
    order_id: args.order_id,
    until_slot: until,
  });
}
