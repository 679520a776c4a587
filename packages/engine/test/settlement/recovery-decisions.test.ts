import { describe, expect, it } from 'vitest';
import type { NoteStatus, TransactionRecord } from '@nightjar/ledger';
import { REDRIVE_MIN_LOCK_SLOTS, recoveryDecisions } from '../../src/settlement/recovery.js';
import type { JobState } from '../../src/settlement/types.js';
import { jobState } from './jobs.js';

const SLOT = 100;

const job = (matchIdx: number, settleSignatures: string[] = []): JobState =>
  jobState(
    matchIdx,
    { inputNullifier: `b${matchIdx}` },
    { inputNullifier: `a${matchIdx}` },
    { settleSignatures },
  );

const locked = (slots: number): NoteStatus => ({ state: 'locked', locked_until_slot: SLOT + slots });

/** A ledger where `sig` landed settling match 0 only, and the notes are as given. */
function ledgerWith(notes: Record<string, NoteStatus>) {
  return {
    getSlot: async () => SLOT,
    getTransaction: async ({ signature }: { signature: string }) =>
      signature === 'sig'
        ? ({
            signature,
            instruction: 'settle_batch',
            err: null,
            result: { matches: [{ match_idx: 0, ok: true }] },
          } as unknown as TransactionRecord)
        : null,
    getNoteStatuses: async ({ nullifiers }: { nullifiers: string[] }) =>
      nullifiers.map((n) => notes[n] ?? { state: 'free' as const }),
  };
}

describe('recovery decisions', () => {
  it('one decision per journaled job, in order, from the ledger alone', async () => {
    const jobs = [job(0, ['sig']), job(1, ['sig']), job(2), job(3), job(4)];
    const ahead = locked(REDRIVE_MIN_LOCK_SLOTS + 1);
    const decisions = await recoveryDecisions(
      ledgerWith({
        b0: { state: 'spent' },
        a0: { state: 'spent' },
        // Match 1's signature landed, but not with match 1 ok; its inputs still hold well ahead.
        b1: ahead,
        a1: ahead,
        // Consumed, but not by a settlement this engine journaled.
        b2: { state: 'spent' },
        a2: ahead,
        // A lock about to lapse: nothing is consumed and it cannot settle in time.
        b3: locked(REDRIVE_MIN_LOCK_SLOTS),
        a3: ahead,
      }),
      jobs,
    );
    expect(decisions).toEqual([
      { kind: 'already_settled', job: jobs[0], signature: 'sig' },
      { kind: 'redrive', job: jobs[1] },
      { kind: 'indeterminate', job: jobs[2] },
      { kind: 'release', job: jobs[3] },
      { kind: 'release', job: jobs[4] },
    ]);
  });

  it('a match killed while proving (locks held, no proof journaled) is released, not redriven', async () => {
    const ahead = locked(REDRIVE_MIN_LOCK_SLOTS + 1);
    const proving = job(0, []);
    delete proving.proof;
    proving.stage = 'proving';
    const proved = job(1, []);
    const decisions = await recoveryDecisions(ledgerWith({ b0: ahead, a0: ahead, b1: ahead, a1: ahead }), [
      proving,
      proved,
    ]);
    expect(decisions.map((d) => d.kind)).toEqual(['release', 'redrive']);
  });

  it('a proven match whose settle_by_slot is (about to be) past is released: the ledger would refuse it', async () => {
    const ahead = locked(1000);
    const late = job(0, []);
    late.plan.settleBySlot = String(SLOT + REDRIVE_MIN_LOCK_SLOTS - 1);
    const inTime = job(1, []);
    inTime.plan.settleBySlot = String(SLOT + REDRIVE_MIN_LOCK_SLOTS + 1);
    const noMemos = job(2, []);
    delete noMemos.memos;
    const decisions = await recoveryDecisions(
      ledgerWith({ b0: ahead, a0: ahead, b1: ahead, a1: ahead, b2: ahead, a2: ahead }),
      [late, inTime, noMemos],
    );
    expect(decisions.map((d) => d.kind)).toEqual(['release', 'redrive', 'release']);
  });
});
