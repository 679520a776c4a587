/**
 * What a ledger instruction error code means for a match, in one exhaustive table: a code added
 * to or renamed in the ledger's `INSTRUCTION_ERRORS` does not compile here until it is mapped.
 */
import { isInstructionErrorCode, type InstructionErrorCode } from '@nightjar/ledger';
import type { RejectReason } from './types.js';

/** The reason a code gives when it fails a match's lock, and when it fails its settle. */
interface StageReasons {
  lock: RejectReason;
  settle: RejectReason;
}

const REJECTED: StageReasons = { lock: 'lock_rejected', settle: 'settlement_rejected' };

const REASONS: Record<InstructionErrorCode, StageReasons> = {
  InvalidArgs: REJECTED,
  UnknownInstruction: REJECTED,
  NotInitialized: REJECTED,
  AlreadyInitialized: REJECTED,
  Unauthorized: REJECTED,
  UnknownMint: REJECTED,
  UnknownMarket: REJECTED,
  MarketExists: REJECTED,
  InsufficientFunds: REJECTED,
  CommitmentMismatch: REJECTED,
  DuplicateCommitment: REJECTED,
  TreeFull: REJECTED,
  BadTreeId: REJECTED,
  // A settlement's proof names its inputs' roots: one that left the window expired with it.
  UnknownRoot: { lock: 'input_root_expired', settle: 'input_root_expired' },
  UnknownNote: REJECTED,
  NoteLocked: { ...REJECTED, lock: 'note_locked' },
  NoteSpent: { lock: 'note_spent', settle: 'note_spent' },
  InvalidProof: REJECTED,
  BadLockExpiry: REJECTED,
  NotLocked: { ...REJECTED, settle: 'lock_expired' },
  LockExpired: { ...REJECTED, settle: 'lock_expired' },
  LockActive: REJECTED,
  ValueNotConserved: REJECTED,
  MintMismatch: REJECTED,
  BatchTooLarge: REJECTED,
  SolvencyViolation: REJECTED,
  SettlementExpired: { lock: 'lock_rejected', settle: 'lock_expired' },
};

/** A code off the wire; one the ledger does not define (or none) rejects without a finer reason. */
function reasonsOf(code: string | undefined): StageReasons {
  return code !== undefined && isInstructionErrorCode(code) ? REASONS[code] : REJECTED;
}

/** Why a match whose input failed to lock (`lock_notes`) is rejected. */
export function lockReason(code: string | undefined): RejectReason {
  return reasonsOf(code).lock;
}

/** Why a match whose `settle_batch` failed is rejected. */
export function settleReason(code: string | undefined): RejectReason {
  return reasonsOf(code).settle;
}
