/**
 * Locking a note for an order. One set of rules for every lock: `lock_note` and each entry of
 * `lock_notes` (there is no relock since settlement v2). A lock names the nullifier, the use tag
 * and the expiry (DESIGN.md section 6): no commitment or order, so it links to no leaf. Its proof
 * (VALID_INPUT v2 or VALID_LOCK, judged at admission, see proof-checks.ts) shows the nullifier is of
 * a note under the named root and the use tag binds that note to one order.
 */
import type { LockRow } from '../chain-state.js';
import { InstructionError } from '@nightjar/protocol/ledger-client';
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
  lock: { nullifier: string; until_slot: number; use_tag: string },
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

export type LockEntry = Args<'lock_note'>;

/**
 * The checks of one lock entry before its proof, cheapest first and read-only (admission runs them
 * too, and again when it lands): the note's state, the expiry, the shard, and the root, which may
 * be any root the shard ever had. Returns the expiry slot.
 */
export function checkLockEntry(ctx: ExecContext, entry: LockEntry): number {
  const until = checkLockable(ctx, entry.nullifier, entry.until_slot);
  knownRoot(ctx, entry.tree_id, entry.merkle_root);
  return until;
}

/**
 * One lock by a TEE key (the signer is already known to be a finalized one): the entry's checks,
 * then its proof's verdict. The lock records the use tag the proof showed; a lock whose proof
 * failed is refused and nothing is stored.
 */
export function lockNote(ctx: ExecContext, entry: LockEntry, verdict: ProofVerdict | undefined): void {
  const until = checkLockEntry(ctx, entry);
  requireProof(verdict);
  placeLock(ctx, { nullifier: entry.nullifier, until_slot: until, use_tag: entry.use_tag });
}
