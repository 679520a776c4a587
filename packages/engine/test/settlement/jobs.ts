/** Hand-made settlement jobs for tests that need a journaled match, not a matcher. */
import type { JobState, PartyPlan } from '../../src/settlement/types.js';

/** A party's plan with nothing to settle (zero amounts, no outputs), overridden as given. */
export function partyPlan(fields: Partial<PartyPlan> = {}): PartyPlan {
  return {
    orderId: '00'.repeat(16),
    accountId: 'a',
    side: 'bid',
    treeId: 0,
    viewingPubkey: '',
    inputNullifier: '01',
    input: { commitment: '02', amount: '0', ownerCommitment: '03', innerHash: '04' },
    lockUntilSlot: '10',
    outputs: [],
    tradeAmount: '0',
    changeAmount: '0',
    feeAmount: '0',
    newAmount: '0',
    filledAfter: '0',
    continues: false,
    ...fields,
  };
}

/** Match `matchIdx` of batch 7 in market `m`, in `settling`, between the given parties. */
export function jobState(
  matchIdx: number,
  bid: Partial<PartyPlan>,
  ask: Partial<PartyPlan>,
  fields: Partial<JobState> = {},
): JobState {
  return {
    batchId: 7n,
    marketId: 'm',
    plan: {
      matchIdx,
      matchId: String(matchIdx + 1),
      quantity: '1',
      price: '1',
      bid: partyPlan(bid),
      ask: partyPlan({ side: 'ask', ...ask }),
    },
    stage: 'settling',
    outcome: 'pending',
    createdAtMs: 1,
    updatedAtMs: 2,
    lockSignatures: [],
    settleSignatures: [],
    // Journaled once proven: a settling job has its proof.
    proof: { proof: '11'.repeat(256), roots: ['05', '06'] },
    ...fields,
  };
}
