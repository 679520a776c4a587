/**
 * Planning is total: over random markets, prices, amounts and collateral (exact, or with a
 * surplus), every match the matcher produces plans without a throw, conserves value per mint, and
 * a remainder rests again only on a change note that covers its collateral, through fills and
 * partial fills across several auctions. Tiny notional orders (nominal 0 or 1, where DESIGN 4's
 * `max(…, 1)` floor bites) are drawn often.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Instrument } from '@nightjar/protocol';
import { required, SOL_USDC, testMarket } from '../../test/fixtures/orders.js';
import type { EngineOrder } from '../orders/engine-order.js';
import { conserves } from './plan.js';

const orderSpec = fc.record({
  bid: fc.boolean(),
  ticks: fc.integer({ min: 0, max: 5 }),
  units: fc.bigInt({ min: 1n, max: 20n }),
  /** Parts per 8 of a unit added to the amount (1.5 × a size is common). */
  eighths: fc.integer({ min: 0, max: 7 }),
  surplus: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0n) },
    { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 3n }) },
    { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 10n ** 12n }) },
  ),
  type: fc.constantFrom('limit', 'limit', 'limit', 'ioc', 'fok'),
  minFill: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0n) },
    { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 5n }) },
  ),
  /** The auction (of four) before which it arrives. */
  arrives: fc.integer({ min: 0, max: 3 }),
});

const marketSpec = fc.record({
  priceScale: fc.constantFrom(1n, 1_000n, 1_000_000_000n),
  tick: fc.constantFrom(1n, 1_000n, 150_000_000n),
  feeBps: fc.oneof(fc.constant(0n), fc.constant(10n), fc.bigInt({ min: 0n, max: 150n })),
  unit: fc.constantFrom(1n, 8n, 1_000n, 500_000n, 1_000_000n, 1_000_000_000n),
});

/**
 * The shape on the dev market's economics: an ask at 0 and a bid of k + e/8 sizes at one
 * tick on exactly its note (k units), whose fill of k sizes leaves change 0 under a remainder that
 * needs 1, among a few random orders.
 */
const cheapScenario = fc
  .record({
    k: fc.bigInt({ min: 1n, max: 20n }),
    eighths: fc.integer({ min: 1, max: 7 }),
    feeBps: fc.constantFrom(0n, 10n),
    rest: fc.array(orderSpec, { maxLength: 4 }),
  })
  .map(({ k, eighths, feeBps, rest }) => {
    const base = { ticks: 0, eighths: 0, surplus: 0n, type: 'limit', minFill: 0n, arrives: 0, units: k };
    return {
      mk: { priceScale: 1_000_000_000n, tick: 1_000n, feeBps, unit: 1_000_000n },
      specs: [{ ...base, bid: false }, { ...base, bid: true, eighths }, ...rest],
    };
  });
const randomScenario = fc.record({
  mk: marketSpec,
  specs: fc.array(orderSpec, { minLength: 2, maxLength: 14 }),
});

describe('settlement planning never throws for a match the matcher produced', () => {
  it('random markets and orders over four auctions: plans are total and conserve value', () => {
    const seen = { matches: 0, continued: 0, endedWithRemainder: 0 };
    fc.assert(
      fc.property(fc.oneof({ weight: 3, arbitrary: randomScenario }, cheapScenario), ({ mk, specs }) => {
        const instrument: Instrument = {
          ...SOL_USDC,
          price_scale: mk.priceScale,
          tick_size: mk.tick,
          fee_bps: mk.feeBps,
        };
        const t = testMarket(instrument);
        const mintOf = (side: 'bid' | 'ask') =>
          side === 'bid' ? instrument.quote_mint : instrument.base_mint;
        const orders: EngineOrder[] = [];
        for (let auction = 0; auction < 4; auction++) {
          for (const s of specs.filter((x) => x.arrives === auction)) {
            const side = s.bid ? 'bid' : 'ask';
            const price = BigInt(s.bid ? s.ticks + 1 : s.ticks) * mk.tick;
            const amount = s.units * mk.unit + (BigInt(s.eighths) * mk.unit) / 8n;
            const note = required(instrument, side, amount, price) + s.surplus;
            orders.push(
              t.place(side, price, amount, note, {
                orderType: s.type as EngineOrder['orderType'],
                minFillSize: s.minFill * mk.unit,
              }),
            );
          }
          const jobs = t.slot(BigInt(100 + auction));
          for (const { plan } of jobs) {
            seen.matches += 1;
            expect(conserves(plan, mintOf)).toBe(true);
            for (const p of [plan.bid, plan.ask]) {
              // Six outputs per match, zero-value ones too, each party's three in slot order.
              expect(p.outputs.map((o) => o.role)).toEqual([1, 2, 3]);
              expect(
                BigInt(plan.settleBySlot) < orders.find((o) => o.orderId === p.orderId)!.expirySlot,
              ).toBe(true);
              const order = orders.find((o) => o.orderId === p.orderId)!;
              if (!p.continues && p.newAmount !== '0' && order.orderType === 'limit')
                seen.endedWithRemainder += 1;
              if (p.continues) {
                seen.continued += 1;
                const need = required(instrument, p.side, BigInt(p.newAmount), order.priceLimit);
                expect(BigInt(p.changeAmount) >= need).toBe(true);
              }
            }
          }
          t.confirm(jobs);
        }
        // Each order: at most one terminal event, and it is the last; fills add up.
        const terminal = new Set(['fully_filled', 'cancelled', 'expired', 'settlement_failed']);
        for (const o of orders) {
          const events = t.events.filter((e) => e.order_id === o.orderId);
          const ends = events.filter((e) => terminal.has(e.kind));
          expect(ends.length).toBeLessThanOrEqual(1);
          if (ends.length === 1) expect(events.at(-1)).toBe(ends[0]);
          const end = ends[0];
          if (end?.kind === 'fully_filled') expect(end.filled_quantity).toBe(o.originalAmount);
          if (end?.kind === 'cancelled' && end.filled_quantity !== undefined)
            expect(end.filled_quantity < o.originalAmount).toBe(true);
          expect(o.filledQuantity <= o.originalAmount).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
    // Not vacuous: matches, continuations and limit remainders its change could not back occurred.
    expect(seen.matches).toBeGreaterThan(300);
    expect(seen.continued).toBeGreaterThan(10);
    expect(seen.endedWithRemainder).toBeGreaterThan(0);
  });
});
