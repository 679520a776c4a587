import { describe, expect, it } from 'vitest';
import { required, SOL_USDC, testMarket } from '../../test/fixtures/orders.js';
import { conserves } from './plan.js';

const M = SOL_USDC.min_order_size;
const TICK = SOL_USDC.tick_size;
const mintOf = (side: 'bid' | 'ask') => (side === 'bid' ? SOL_USDC.quote_mint : SOL_USDC.base_mint);
const strip = ({ server_time_ms: _, ...e }: { server_time_ms: number }) => e;

describe('settlement planning: a remainder its change note cannot back', () => {
  it('a bid whose fill takes all of its 1-unit note ends with its fill; the honest ask fills in full', () => {
    const t = testMarket();
    // Bid 1.5 × min at one tick: nominal floor(1.5) = 1, so a 1-unit note backs it. Filling min
    // takes quote 1, leaving a zero change note, while the remainder would need max(0, 1) = 1.
    expect(required(SOL_USDC, 'bid', (3n * M) / 2n, TICK)).toBe(1n);
    const ask = t.place('ask', 0n, M, required(SOL_USDC, 'ask', M, 0n));
    const bid = t.place('bid', TICK, (3n * M) / 2n, 1n);

    const jobs = t.slot(100n);
    expect(jobs).toHaveLength(1);
    const { plan } = jobs[0]!;
    expect(plan.bid).toMatchObject({
      continues: false,
      tradeAmount: M.toString(),
      changeAmount: '0',
      newAmount: (M / 2n).toString(),
    });
    expect(plan.bid.outputs.map((o) => o.role)).toEqual([1]);
    expect(plan.bid.outputs.some((o) => o.relock)).toBe(false);
    expect(plan.ask).toMatchObject({ continues: false, newAmount: '0', tradeAmount: '1' });
    expect(conserves(plan, mintOf)).toBe(true);

    t.confirm(jobs);
    const of = (id: string) => t.events.filter((e) => e.order_id === id).map((e) => e.kind);
    expect(of(ask.orderId)).toEqual(['pending_settlement', 'fully_filled']);
    expect(of(bid.orderId)).toEqual(['pending_settlement', 'cancelled']);
    expect(t.events.at(-2)).toMatchObject({ order_id: bid.orderId, kind: 'cancelled', filled_quantity: M });
    expect(t.registry.get(bid.orderId)).toMatchObject({ lifecycle: 'cancelled', filledQuantity: M });
    expect(t.registry.get(ask.orderId)).toMatchObject({ lifecycle: 'empty', filledQuantity: M });
    expect(t.registry.liveCount).toBe(0);
    expect(t.market.book.size).toBe(0);
  });
});

describe('order events of a confirmed match: one builder for the live path and after a restart', () => {
  it('a partially filled ioc ends cancelled with its filled quantity, live and reconciled alike', () => {
    const t = testMarket();
    const price = 150_000_000n;
    const ask = t.place('ask', price, M, required(SOL_USDC, 'ask', M, price));
    const ioc = t.place('bid', price, 3n * M, required(SOL_USDC, 'bid', 3n * M, price), {
      orderType: 'ioc',
    });
    const jobs = t.slot(100n);
    const reconciled = t.confirmAfterRestart(jobs);
    t.confirm(jobs);
    const live = t.events.filter((e) => e.kind !== 'pending_settlement');
    expect(live.find((e) => e.order_id === ioc.orderId)).toMatchObject({
      kind: 'cancelled',
      filled_quantity: M,
      match_id: '1',
    });
    expect(live.find((e) => e.order_id === ask.orderId)).toMatchObject({
      kind: 'fully_filled',
      filled_quantity: M,
    });
    expect(t.registry.get(ioc.orderId)).toMatchObject({ lifecycle: 'cancelled', filledQuantity: M });
    expect(reconciled.map(strip)).toEqual(live.map(strip));
  });

  it('a partial fill of a limit order: partially_filled with the same fields on both paths', () => {
    const t = testMarket();
    const price = 150_000_000n;
    t.place('ask', price, M, required(SOL_USDC, 'ask', M, price));
    const bid = t.place('bid', price, 3n * M, required(SOL_USDC, 'bid', 3n * M, price));
    const jobs = t.slot(100n);
    const reconciled = t.confirmAfterRestart(jobs);
    t.confirm(jobs);
    const live = t.events.filter((e) => e.kind !== 'pending_settlement');
    expect(live.find((e) => e.order_id === bid.orderId)).toMatchObject({
      kind: 'partially_filled',
      filled_quantity: M,
      new_amount: 2n * M,
      new_note_amount: bid.noteAmount,
    });
    expect(reconciled.map(strip)).toEqual(live.map(strip));
  });
});
