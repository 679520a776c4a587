import { describe, expect, it } from 'vitest';
import { INSTRUCTION_ERRORS, isInstructionErrorCode, type InstructionErrorCode } from '@nightjar/ledger';
import { lockReason, settleReason } from './ledger-codes.js';
import { REJECT_REASONS } from './types.js';

describe('ledger error codes as reject reasons', () => {
  it('names the finer reasons of a failed lock and a failed settle', () => {
    expect(lockReason('UnknownRoot')).toBe('input_root_expired');
    expect(settleReason('UnknownRoot')).toBe('input_root_expired');
    expect(lockReason('NoteSpent')).toBe('note_spent');
    expect(lockReason('NoteLocked')).toBe('note_locked');
    expect(lockReason('LockExpired')).toBe('lock_rejected');
    expect(settleReason('LockExpired')).toBe('lock_expired');
    expect(settleReason('NotLocked')).toBe('lock_expired');
    expect(settleReason('NoteSpent')).toBe('note_spent');
    expect(settleReason('NoteLocked')).toBe('settlement_rejected');
  });

  it('rejects without a finer reason for no code or a code the ledger does not define', () => {
    for (const code of [undefined, 'NoSuchCode', 'toString', '__proto__']) {
      expect(lockReason(code)).toBe('lock_rejected');
      expect(settleReason(code)).toBe('settlement_rejected');
    }
  });

  it('maps every ledger code to a reason of the closed set', () => {
    for (const code of Object.keys(INSTRUCTION_ERRORS) as InstructionErrorCode[]) {
      expect(isInstructionErrorCode(code)).toBe(true);
      expect(REJECT_REASONS).toContain(lockReason(code));
      expect(REJECT_REASONS).toContain(settleReason(code));
    }
  });
});
