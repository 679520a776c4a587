/**
 * Locking a note for an order. One set of rules for every way a lock is made: `lock_note`, each
 * entry of `lock_notes`, and a settlement output's `relock`. A lock names the nullifier and its
 * expiry only (DESIGN.md section 6): no commitment, root or order, so it links to no leaf.
 */
import type { LockRow } from '../chain-state.js';
import { InstructionError } from '../errors.js';
import type { Args } from './args.js';
import type { ExecContext } from './context.js';

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
export function placeLock(ctx: ExecContext, lock: { nullifier: string; until_slot: number }): void {
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
 * One lock by a TEE key (the signer is already known to be a finalized one). The owner's
 * VALID_INPUT proof was checked by the engine at intake and stays off chain (it names the
 * commitment); a lock on a nullifier of no real note reserves nothing, since no VALID_MATCH proof
 * can consume it.
 */
export function lockNote(ctx: ExecContext, args: Args<'lock_note'>): void {
  const until = checkLockable(ctx, args.nullifier, args.until_slot);
  placeLock(ctx, { nullifier: args.nullifier, until_slot: until });
}
