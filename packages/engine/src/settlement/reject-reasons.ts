/**
 * Ledger instruction error codes to the closed set of reject reasons a client may see: no ledger
 * or RPC text ever leaves the engine. Kept apart so a change to the ledger's codes lands here alone.
 */
import type { RejectReason } from './types.js';

/** Why a `lock_notes` entry failed. */
export function lockReason(code: string | undefined): RejectReason {
  switch (code) {
    case 'UnknownRoot':
      return 'input_root_expired';
    case 'NoteSpent':
      return 'note_spent';
    case 'NoteLocked':
      return 'note_locked';
    default:
      return 'lock_rejected';
  }
}

/** Why a `settle_batch` match (or the whole transaction) failed. */
export function settleReason(code: string | undefined): RejectReason {
  switch (code) {
    case 'LockExpired':
    case 'NotLocked':
      return 'lock_expired';
    case 'NoteSpent':
      return 'note_spent';
    default:
      return 'settlement_rejected';
  }
}
