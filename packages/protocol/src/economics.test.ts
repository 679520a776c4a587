import { describe, expect, it } from 'vitest';
import { feeOn, nominalCost, quoteForFill, requiredCollateral } from './economics.js';

const market = { price_scale: 1_000_000_000n, fee_bps: 25n };

describe('economics', () => {
  it('bid: floor(amount × price / scale) plus floor(nominal × bps / 10000)', () => {
    // 1.5 base at 20.000001 quote per unit scale → 30000001.5 → 30000001; fee 25 bps → 75000.
    expect(nominalCost('bid', 1_500_000_000n, 20_000_001n, market)).toBe(30_000_001n);
    expect(requiredCollateral('bid', 1_500_000_000n, 20_000_001n, market)).toBe(30_000_001n + 75_000n);
  });

  it('ask: the base amount plus its own fee', () => {
    expect(requiredCollateral('ask', 1_000_000n, 0n, market)).toBe(1_002_500n);
  });

  it('never requires less than 1', () => {
    expect(requiredCollateral('bid', 1n, 1n, market)).toBe(1n);
    expect(requiredCollateral('ask', 1n, 0n, { ...market, fee_bps: 0n })).toBe(1n);
  });

  it('stays exact beyond u64 (BigInt, no floating point)', () => {
    const max = (1n << 64n) - 1n;
    expect(nominalCost('bid', max, max, { price_scale: 1n, fee_bps: 0n })).toBe(max * max);
    expect(feeOn(9_999n, 1n)).toBe(0n);
    expect(quoteForFill(3n, 10n, 4n)).toBe(7n);
  });
});
