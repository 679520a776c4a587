/**
 * Issue 30, item 5: a fill push landed one slot after the settlement that held the trader's
 * match, so its arrival named the settlement. A confirmed match's pushes now wait a uniform,
 * crypto-random hold (at most two slots by default). Manual clock and injected random: no sleeps.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILL_PUSH_HOLD_MS } from '../../src/engine.js';
import { VenueEventBus, type BusEvent } from '../../src/event-bus.js';
import { OrderRegistry } from '../../src/orders/order-registry.js';
import { SettlementEffects } from '../../src/orders/settlement-effects.js';
import { ManualClock } from '../../src/stream/clock.js';
import { jobState } from './jobs.js';

const job = jobState(
  0,
  { accountId: 'alice', orderId: 'aa'.repeat(16) },
  { accountId: 'bob', orderId: 'bb'.repeat(16), treeId: 1 },
  { batchId: 9n, marketId: 'market', stage: 'closing', memos: ['c1'.repeat(4), 'c2'.repeat(4)] },
);

function setup(random?: (max: number) => number, maxDelayMs = DEFAULT_FILL_PUSH_HOLD_MS) {
  const clock = new ManualClock(1_700_000_000_000);
  const draws: number[] = [];
  const bus = new VenueEventBus(
    (err) => {
      throw err;
    },
    {
      maxDelayMs,
      clock,
      ...(random
        ? {
            random: (max: number) => {
              draws.push(max);
              return random(max);
            },
          }
        : {}),
    },
  );
  // Every event here is account-routed or a tree leaf: a flat view reads them simply.
  const seen: { channel: string; accountId?: string; body: unknown; busSeq: number }[] = [];
  bus.subscribe((e: BusEvent) =>
    seen.push({
      channel: e.channel,
      ...('accountId' in e ? { accountId: e.accountId } : {}),
      body: 'body' in e ? e.body : undefined,
      busSeq: e.busSeq,
    }),
  );
  const effects = new SettlementEffects({
    registry: new OrderRegistry(),
    events: bus,
    marketBySymbol: new Map(),
    unusableNote: () => undefined,
    now: clock.now,
  });
  return { clock, bus, seen, effects, draws };
}

describe('fill push hold', () => {
  it('is two slots (800 ms) at most by default', () => {
    expect(DEFAULT_FILL_PUSH_HOLD_MS).toBe(800);
  });

  it('holds a confirmed match’s fill and order event for the drawn delay, not one ms less', () => {
    const holds: Record<number, number> = { 0: 537, 1: 120 };
    let n = 0;
    const { clock, seen, effects, draws } = setup(() => holds[n++]!);
    effects.confirmed(job);
    // Before the fix both pushes were on the bus at once.
    expect(seen).toEqual([]);
    expect(draws).toEqual([800, 800]);
    clock.advance(119);
    expect(seen).toEqual([]);
    clock.advance(1);
    // Bob's hold (120 ms) is independent of Alice's.
    expect(seen.map((e) => [e.accountId, e.channel])).toEqual([
      ['bob', 'fills'],
      ['bob', 'orders'],
    ]);
    clock.advance(416);
    expect(seen).toHaveLength(2);
    clock.advance(1);
    expect(seen.map((e) => [e.accountId, e.channel])).toEqual([
      ['bob', 'fills'],
      ['bob', 'orders'],
      ['alice', 'fills'],
      ['alice', 'orders'],
    ]);
    // The fill still carries the confirmation's time (only the trader reads it, inside TLS).
    const fill = seen.find((e) => e.channel === 'fills' && e.accountId === 'alice')!;
    expect((fill.body as { server_time_ms: number }).server_time_ms).toBe(1_700_000_000_000);
  });

  it('stays within [0, max] with the default crypto-random source', () => {
    const { clock, bus, seen, effects } = setup(undefined, 800);
    for (let i = 0; i < 50; i++) effects.confirmed(job);
    expect(seen).toEqual([]);
    clock.advance(800);
    expect(seen).toHaveLength(200);
    expect(bus.heldCount('alice') + bus.heldCount('bob')).toBe(0);
  });

  it('keeps an account’s order: an event published during the hold waits behind it', () => {
    const { clock, bus, seen, effects } = setup(() => 400);
    effects.confirmed(job);
    // Alice cancels her rebooked remainder meanwhile: the terminal event must stay the last.
    bus.emit('alice', { order_id: 'aa'.repeat(16), kind: 'cancelled' } as never);
    // Another account's events are not held.
    bus.emit('carol', { order_id: 'cc'.repeat(16), kind: 'cancelled' } as never);
    bus.publish({ channel: 'tree', body: {} as never });
    expect(seen.map((e) => e.accountId ?? e.channel)).toEqual(['carol', 'tree']);
    clock.advance(400);
    expect(seen.filter((e) => 'accountId' in e && e.accountId === 'alice').map((e) => e.channel)).toEqual([
      'fills',
      'orders',
      'orders',
    ]);
    expect(
      (seen.filter((e) => 'accountId' in e && e.accountId === 'alice').at(-1)!.body as { kind: string }).kind,
    ).toBe('cancelled');
    // Bus sequence numbers stay gap-free and increasing in publication order.
    expect(seen.map((e) => e.busSeq)).toEqual(seen.map((_, i) => i + 1));
  });

  it('is off at 0 ms, and shutdown releases whatever is held', () => {
    const off = setup(() => 0, 0);
    off.effects.confirmed(job);
    expect(off.seen).toHaveLength(4);
    const on = setup(() => 800);
    on.effects.confirmed(job);
    on.bus.releaseHeld();
    expect(on.seen).toHaveLength(4);
    expect(on.clock.pending).toBe(0);
  });
});
