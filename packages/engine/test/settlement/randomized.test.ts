/**
 * A randomized run: many traders place random crossing orders while the ledger drops replies and
 * refuses transactions. Afterwards value per mint is conserved (vault = notes = deposits), no order
 * has more than one terminal event, and none is left in `pending_settlement`.
 */
import { describe, expect, it } from 'vitest';
import { SOL, startTestVenue, Trader, USDC } from '@nightjar/testkit';
import { StreamClient } from '../stream/stream-client.js';

const ONE_SOL = 1_000_000_000n;
const TERMINAL = new Set(['fully_filled', 'settlement_failed', 'cancelled', 'expired']);

describe('randomized settlement under faults', () => {
  it('conserves value and ends every order at most once', async () => {
    const v = await startTestVenue({
      settle: true,
      orderRateLimit: { capacity: 1000, refillPerSecond: 1000 },
    });
    try {
      let seed = 12345;
      const rnd = (n: number) => {
        // mulberry32: exact in 32-bit integer arithmetic
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) % n;
      };
      const { token } = await v.newAccount();
      const stream = await StreamClient.login(v, token);
      await stream.request({ op: 'subscribe', channels: ['orders'] });
      const deposited = new Map<string, bigint>([
        [SOL, 0n],
        [USDC, 0n],
      ]);
      const orders: string[] = [];
      await v.ledger.setFaults({ dropRate: 0.2, rejectRate: 0.1 });
      for (let round = 0; round < 3; round++) {
        const traders = Array.from({ length: 6 }, () => v.trader());
        for (const t of traders) {
          const side = rnd(2) === 0 ? 'bid' : 'ask';
          const amount = BigInt(1 + rnd(3)) * ONE_SOL;
          const price = BigInt(148 + rnd(5)) * 1_000_000n;
          const value = side === 'bid' ? Trader.required('bid', amount, price) : amount + amount;
          const mint = side === 'bid' ? USDC : SOL;
          await v.ledger.setFaults({ dropRate: 0, rejectRate: 0 });
          const note = await t.deposit(mint, value);
          await v.ledger.setFaults({ dropRate: 0.2, rejectRate: 0.1 });
          deposited.set(mint, deposited.get(mint)! + value);
          const body = t.order(note, { amount, price_limit: price });
          const r = await v.client.send('/orders', { token, body });
          expect(r.status, r.text).toBe(202);
          orders.push(body.order_id);
        }
        for (let i = 0; i < 30; i++) {
          await v.advance(1);
          await new Promise((r) => setTimeout(r, 10));
        }
      }
      // Let everything in flight finish.
      await v.ledger.setFaults({ dropRate: 0, rejectRate: 0 });
      for (let i = 0; i < 400 && (v.engine.context.settlement.inFlightMatches?.() ?? 0) > 0; i++) {
        await v.advance(1);
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(v.engine.context.settlement.inFlightMatches?.()).toBe(0);

      const solvency = await v.ledger.getSolvency();
      for (const m of solvency.mints) {
        expect(m.vault_balance).toBe(m.outstanding_note_value);
        if (deposited.has(m.mint)) expect(BigInt(m.vault_balance)).toBe(deposited.get(m.mint));
      }
      const events = stream.events('orders');
      let confirmed = 0;
      for (const id of orders) {
        const mine = events.filter((e) => e.order_id === id).map((e) => e.kind as string);
        expect(mine.filter((k) => TERMINAL.has(k)).length).toBeLessThanOrEqual(1);
        const terminalAt = mine.findIndex((k) => TERMINAL.has(k));
        if (terminalAt >= 0) expect(terminalAt).toBe(mine.length - 1);
        if (mine.includes('fully_filled') || mine.includes('partially_filled')) confirmed += 1;
        const look = await v.client.send(`/orders/${id}`, { token });
        if (look.status === 200) expect(look.body.status).not.toBe('pending_settlement');
      }
      expect(confirmed).toBeGreaterThan(0);
      await stream.close();
    } finally {
      await v.close();
    }
  }, 60_000);
});
