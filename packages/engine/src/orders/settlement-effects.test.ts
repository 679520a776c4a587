import { describe, expect, it } from 'vitest';
import { VenueEventBus, type BusEvent } from '../event-bus.js';
import type { JobState, PartyPlan } from '../settlement/types.js';
import { OrderRegistry } from './order-registry.js';
import { SettlementEffects } from './settlement-effects.js';

const party = (side: 'bid' | 'ask', accountId: string, orderId: string): PartyPlan => ({
  orderId,
  accountId,
  side,
  treeId: side === 'bid' ? 0 : 1,
  viewingPubkey: '00',
  inputNullifier: '01',
  lockUntilSlot: '90',
  outputs: [],
  tradeAmount: '5',
  changeAmount: '0',
  feeAmount: '0',
  newAmount: '0',
  filledAfter: '5',
  continues: false,
});

/** A confirmed match as boot recovery finds it in the journal: its orders are not live this boot. */
const recoveredJob: JobState = {
  batchId: 9n,
  marketId: 'market',
  plan: {
    matchIdx: 0,
    matchId: '41',
    quantity: '5',
    bid: party('bid', 'alice', 'aa'.repeat(16)),
    ask: party('ask', 'bob', 'bb'.repeat(16)),
  },
  stage: 'closing',
  outcome: 'confirmed',
  createdAtMs: 1,
  updatedAtMs: 2,
  lockSignatures: [],
  settleSignatures: [],
  memos: ['c1'.repeat(4), 'c2'.repeat(4)],
};

describe('settlement effects', () => {
  it('publishes each party’s fill on the event bus, with no stream and no live order', () => {
    const bus = new VenueEventBus((err) => {
      throw err;
    });
    const seen: BusEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    const effects = new SettlementEffects({
      registry: new OrderRegistry(),
      events: bus,
      marketBySymbol: new Map(),
      now: () => 1_700_000_000_000,
    });
    effects.confirmed(recoveredJob);
    const fills = seen.filter((e) => e.channel === 'fills');
    expect(fills.map((e) => ({ accountId: e.accountId, body: e.body }))).toEqual([
      {
        accountId: 'alice',
        body: {
          order_id: 'aa'.repeat(16),
          market_id: 'market',
          match_id: '41',
          batch_id: 9n,
          outcome: 'confirmed',
          tree_id: 0,
          memo: 'c1'.repeat(4),
          server_time_ms: 1_700_000_000_000,
        },
      },
      {
        accountId: 'bob',
        body: {
          order_id: 'bb'.repeat(16),
          market_id: 'market',
          match_id: '41',
          batch_id: 9n,
          outcome: 'confirmed',
          tree_id: 1,
          memo: 'c2'.repeat(4),
          server_time_ms: 1_700_000_000_000,
        },
      },
    ]);
    // Each fill precedes its order's terminal event, as before.
    expect(seen.map((e) => e.channel)).toEqual(['fills', 'orders', 'fills', 'orders']);
  });
});
