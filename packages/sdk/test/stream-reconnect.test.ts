/**
 * Issue 20, item 8: the stream tells a program when its connection is lost (`disconnected`, with
 * the reason and the close code) and when it is whole again (`reconnected`, after the resync),
 * in that order. Against the real engine (stand-in proofs): the venue closes every stream socket
 * server-side (1011, events missed) while an order rests; the program is held back from
 * reconnecting for a while, then reconnects, and its order is re-read by the resync.
 */
import { requiredCollateral } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelOrder, createStream, placeOrder, type StreamClientEvent } from '../src/index.js';
import { finalize, fund, newParty, units, type Party } from '@nightjar/testkit';
import { startTestVenue, type TestVenue } from './helpers.js';

let v: TestVenue;
let a: Party;

beforeAll(async () => {
  v = await startTestVenue();
  a = await newParty(v);
}, 60_000);
afterAll(async () => {
  await a?.client.close();
  await v?.close();
});

/** Resolves once `condition` holds, polling; fails after `ms`. */
async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Each event as one word (an order event with its kind and source). */
const names = (events: StreamClientEvent[]) =>
  events.map((e) => (e.type === 'order' ? `order ${e.event.kind} ${e.source}` : e.type));

describe('stream: disconnected and reconnected', () => {
  it('a server-side close is reported as disconnected, then the resync, then reconnected', async () => {
    const inst = await a.client.instrument('SOL-USDC');
    const { one, price } = units(inst);
    await fund(a, v, inst.quote_mint, requiredCollateral('bid', one, price(150), inst));
    await finalize(v);
    const { orderId } = await placeOrder(a.client, {
      symbol: 'SOL-USDC',
      side: 'bid',
      amount: '1',
      price: '150',
    });
    // The program holds the reconnect back until the test has seen `disconnected`.
    let letBack!: () => void;
    const mayReconnect = new Promise<void>((r) => (letBack = r));
    const stream = await createStream(a.client, {
      channels: ['orders'],
      reconnectDelayMs: 1,
      beforeReconnect: () => mayReconnect,
    });
    const events: StreamClientEvent[] = [];
    for (const t of ['order', 'disconnected', 'resync', 'reconnected', 'error'] as const)
      stream.on(t, (e) => events.push(e));
    try {
      v.engine.context.streamHub.failAll('test: the venue drops every stream socket');
      await until(() => events.some((e) => e.type === 'disconnected'), 'disconnected');
      expect(events[0]).toEqual({
        type: 'disconnected',
        reason: 'events_missed',
        code: 1011,
        engine: v.engine.url,
      });
      expect(stream.reconnects).toBe(0);
      letBack();
      await until(() => events.some((e) => e.type === 'reconnected'), 'reconnected');
      expect(names(events.filter((e) => e.type !== 'error'))).toEqual([
        'disconnected',
        'resync',
        'reconnected',
      ]);
      const reconnected = events.find((e) => e.type === 'reconnected');
      expect(reconnected).toMatchObject({ type: 'reconnected', reason: 'events_missed' });
      expect(reconnected?.type === 'reconnected' && reconnected.downtimeMs).toBeGreaterThanOrEqual(0);
      expect(stream.reconnects).toBe(1);
      expect(a.wallet.orders.get(orderId)?.status).toBe('pending');
    } finally {
      await stream.close();
      await cancelOrder(a.client, { orderId });
    }
  });
});
