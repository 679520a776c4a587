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
    lock: { tree_id: 0, merkle_root: '05', nullifier: '01', use_tag: '06', until_slot: '10', proof: '' },
    lockSource: 'client',
    lockUntilSlot: '10',
    terms: { amount: '1', priceLimit: '1', minFillSize: '0', expirySlot: '100' },
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
      settleBySlot: '1000',
      bid: partyPlan(bid),
      ask: partyPlan({ side: 'ask', ...ask }),
    },
    stage: 'settling',
    outcome: 'pending',
    createdAtMs: 1,
    updatedAtMs: 2,
    lockSignatures: [],
    settleSignatures: [],
    // Journaled once proven: a settling job has its proof (and the memos it binds).
    proof: { proof: '11'.repeat(256) },
    memos: ['aa', 'bb'],
    ...fields,
  };
}
