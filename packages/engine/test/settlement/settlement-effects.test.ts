import { describe, expect, it } from 'vitest';
import { VenueEventBus, type BusEvent } from '../../src/event-bus.js';
import { OrderRegistry } from '../../src/orders/order-registry.js';
import { SettlementEffects } from '../../src/orders/settlement-effects.js';
import { jobState } from './jobs.js';

/** A confirmed match as boot recovery finds it in the journal: its orders are not live this boot. */
const recoveredJob = jobState(
  0,
  { accountId: 'alice', orderId: 'aa'.repeat(16) },
  { accountId: 'bob', orderId: 'bb'.repeat(16), treeId: 1 },
  { batchId: 9n, marketId: 'market', stage: 'closing', memos: ['c1'.repeat(4), 'c2'.repeat(4)] },
);

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
      unusableNote: () => undefined,
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
          match_id: '1',
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
          match_id: '1',
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
