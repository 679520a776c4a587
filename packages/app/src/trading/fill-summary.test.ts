/** Per-market figures from the wallet's own fills: average prices, fees, realised P&L (average cost). */
import { describe, expect, it } from 'vitest';
import type { Instrument, TrackedFill, TrackedOrder } from '@nightjar/sdk';
import { FAKE_MARKET } from '@nightjar/testkit/sdk-fakes';
import { summarizeFills, type OwnFill } from './fill-summary.js';

/** SOL-USDC: 9 base decimals, 6 quote decimals, price_scale 10^9. */
const SOL_USDC: Instrument = FAKE_MARKET;

const SOL = 1_000_000_000n; // base atomic units per SOL
const USDC = 1_000_000n; // quote atomic units per USDC
/** A human USDC-per-SOL price as a price limit (quote atomic per price_scale base atomic). */
const px = (usdcPerSol: number) => BigInt(Math.round(usdcPerSol * 1000)) * 1000n;

let time = 1_000;
function fill(
  side: 'bid' | 'ask',
  amounts: { size?: bigint; price?: bigint; fee?: bigint },
  outcome: TrackedFill['settlement']['outcome'] = 'settled',
): OwnFill {
  time += 1_000;
  const order = {
    orderId: `o${time}`,
    symbol: 'SOL-USDC',
    side,
    noteCommitment: 'c',
    status: 'fully_filled',
    baseMint: 'SOL',
    quoteMint: 'USDC',
    filledQuantity: amounts.size ?? 0n,
  } satisfies TrackedOrder;
  const f: TrackedFill = {
    orderId: order.orderId,
    matchId: '1',
    time,
    ...amounts,
    settlement: { stage: 'done', outcome },
  };
  return { fill: f, order, inst: SOL_USDC };
}

describe('summarizeFills (average cost)', () => {
  it('averages the prices, sums the fees and realises P&L net of fees; a fill awaiting its memo counts nowhere', () => {
    const fills = [
      fill('bid', { size: 2n * SOL, price: px(100), fee: 200_000n }), // 0.2 USDC
      fill('bid', { size: 1n * SOL, price: px(130), fee: 130_000n }), // 0.13 USDC
      // Sells 2 of the 3 SOL (average cost 110) at 120: +20 USDC; fee 0.002 SOL = 0.24 USDC at 120.
      fill('ask', { size: 2n * SOL, price: px(120), fee: 2_000_000n }),
      fill('ask', {}), // heard of, memo not arrived
      fill('bid', { size: 5n * SOL, price: px(1), fee: 0n }, 'failed'), // never happened
    ];
    expect(summarizeFills(fills)).toEqual([
      {
        symbol: 'SOL-USDC',
        base: 'SOL',
        quote: 'USDC',
        fills: 3,
        awaiting_memo: 1,
        bought: '3',
        sold: '2',
        avg_buy_price: '110',
        avg_sell_price: '120',
        fees_quote: '0.33',
        fees_base: '0.002',
        position: '1',
        avg_cost: '110',
        // 20 − (0.2 + 0.13 + 0.24)
        realised_pnl: '19.43',
      },
    ]);
  });

  it('is exact where floats would drift: a thirds average cost, then a sale of all of it', () => {
    const bought = [
      fill('bid', { size: 1n * SOL, price: px(100), fee: 0n }),
      fill('bid', { size: 2n * SOL, price: px(101), fee: 0n }),
    ];
    const partly = summarizeFills([...bought, fill('ask', { size: 1n * SOL, price: px(101), fee: 0n })])[0]!;
    expect(partly.avg_cost).toBe('100.666666666666666666');
    expect(partly.realised_pnl).toBe('0.333333'); // 1 × (101 − 100⅔), to the USDC's smallest unit
    const all = summarizeFills([...bought, fill('ask', { size: 3n * SOL, price: px(101), fee: 0n })])[0]!;
    expect(all).toMatchObject({ position: '0', avg_cost: '', realised_pnl: '1' });
  });

  it('a short: a buy closes it against its average, and the rest opens a long at the buy price', () => {
    const s = summarizeFills([
      fill('ask', { size: 1n * SOL, price: px(100), fee: 0n }),
      fill('bid', { size: 3n * SOL, price: px(90), fee: 1n * USDC }),
    ])[0]!;
    // Covering the short at 90: +10; the 1 USDC fee: −1. Then long 2 at 90.
    expect(s).toMatchObject({ position: '2', avg_cost: '90', realised_pnl: '9', fees_quote: '1' });
  });

  it('a loss is negative; no fills, no markets', () => {
    const loss = summarizeFills([
      fill('bid', { size: 1n * SOL, price: px(100), fee: 0n }),
      fill('ask', { size: 1n * SOL, price: px(99.5), fee: 0n }),
    ]);
    expect(loss.map((m) => [m.symbol, m.realised_pnl])).toEqual([['SOL-USDC', '-0.5']]);
    expect(summarizeFills([])).toEqual([]);
  });
});
