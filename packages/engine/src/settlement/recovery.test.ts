import { describe, expect, it } from 'vitest';
import type { NoteStatus, TransactionRecord } from '@nightjar/ledger';
import { REDRIVE_MIN_LOCK_SLOTS, recoveryDecisions } from './recovery.js';
import type { JobState, PartyPlan } from './types.js';

const SLOT = 100;

const party = (nullifier: string): PartyPlan => ({
  orderId: nullifier.repeat(16),
  accountId: 'a',
  side: 'bid',
  treeId: 0,
  viewingPubkey: '00',
  inputNullifier: nullifier,
  lockUntilSlot: '200',
  outputs: [],
  tradeAmount: '0',
  changeAmount: '0',
  feeAmount: '0',
  newAmount: '0',
  filledAfter: '0',
  continues: false,
});

const job = (matchIdx: number, settleSignatures: string[] = []): JobState => ({
  batchId: 1n,
  marketId: 'm',
  plan: {
    matchIdx,
    matchId: String(matchIdx),
    quantity: '1',
    bid: party(`b${matchIdx}`),
    ask: party(`a${matchIdx}`),
  },
  stage: 'settling',
  outcome: 'pending',
  createdAtMs: 0,
  updatedAtMs: 0,
  lockSignatures: [],
  settleSignatures,
});

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
});
