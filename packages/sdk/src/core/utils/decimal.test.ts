import { describe, expect, it } from 'vitest';
import { formatPrice, formatUnits, parsePrice, parseUnits } from './decimal.js';
import { NIGHTJAR_ERROR__PARAMETER } from '../errors/index.js';

const SOL_USDC = { base_decimals: 9, quote_decimals: 6, price_scale: 1_000_000_000n };

describe('decimal conversion', () => {
  it('parses human amounts exactly', () => {
    expect(parseUnits('1.5', 9)).toBe(1_500_000_000n);
    expect(parseUnits('450.45', 6)).toBe(450_450_000n);
    expect(parseUnits('0.000001', 6)).toBe(1n);
    expect(parseUnits('3', 9)).toBe(3_000_000_000n);
    expect(parseUnits('1.10', 1)).toBe(11n);
    expect(parseUnits(42n, 9)).toBe(42n);
  });
  it('refuses what does not convert exactly', () => {
    expect(() => parseUnits('0.0000001', 6)).toThrow(
      expect.objectContaining({ code: NIGHTJAR_ERROR__PARAMETER }),
    );
    expect(() => parseUnits('-1', 6)).toThrow(expect.objectContaining({ code: NIGHTJAR_ERROR__PARAMETER }));
    expect(() => parseUnits('1e3', 6)).toThrow(expect.objectContaining({ code: NIGHTJAR_ERROR__PARAMETER }));
    expect(() => parseUnits('01', 6)).toThrow(expect.objectContaining({ code: NIGHTJAR_ERROR__PARAMETER }));
  });
  it('formats atomic amounts', () => {
    expect(formatUnits(1_500_000_000n, 9)).toBe('1.5');
    expect(formatUnits(3n, 0)).toBe('3');
  });
  it('converts prices with the decimals and price_scale', () => {
    expect(parsePrice('150', SOL_USDC)).toBe(150_000_000n);
    expect(parsePrice('150.25', SOL_USDC)).toBe(150_250_000n);
    expect(formatPrice(150_250_000n, SOL_USDC)).toBe('150.25');
    // A price finer than the price unit is refused, not rounded.
    expect(() => parsePrice('0.0000001', { base_decimals: 0, quote_decimals: 6, price_scale: 1n })).toThrow(
      expect.objectContaining({ code: NIGHTJAR_ERROR__PARAMETER }),
    );
  });
});
