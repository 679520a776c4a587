/**
 * Exact conversion between human decimal strings and atomic integers. No floating point: a value
 * that does not convert exactly is refused, never rounded.
 */
import type { Instrument } from '@nightjar/protocol';
import { NIGHTJAR_ERROR__PARAMETER, NightjarError } from '../errors/index.js';

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** `"1.5"` with 9 decimals → `1500000000n`. Accepts a bigint as already atomic. */
export function parseUnits(value: string | bigint, decimals: number, what = 'amount'): bigint {
  if (typeof value === 'bigint') {
    if (value < 0n)
      throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, { detail: `${what} must not be negative` });
    return value;
  }
  const m = DECIMAL.exec(value.trim());
  if (!m)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `${what} must be a non-negative decimal string like "1.25"`,
    });
  const whole = m[1]!;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `${what} has more than ${decimals} decimal places`,
    });
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
}

/** `1500000000n` with 9 decimals → `"1.5"`. */
export function formatUnits(value: bigint, decimals: number): string {
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const frac = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** The instrument fields a price conversion needs. */
export type PriceScale = Pick<Instrument, 'base_decimals' | 'quote_decimals' | 'price_scale'>;

/**
 * A human price (quote per base, e.g. `"150.25"` USDC per SOL) → `price_limit` (quote atomic units
 * per `price_scale` base atomic units). Exact or refused.
 */
export function parsePrice(value: string | bigint, inst: PriceScale): bigint {
  if (typeof value === 'bigint') return parseUnits(value, 0, 'price');
  const m = DECIMAL.exec(value.trim());
  if (!m)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: 'price must be a non-negative decimal string like "150.25"',
    });
  const frac = (m[2] ?? '').replace(/0+$/, '');
  const num = BigInt(m[1]! + frac) * 10n ** BigInt(inst.quote_decimals) * inst.price_scale;
  const den = 10n ** BigInt(frac.length) * 10n ** BigInt(inst.base_decimals);
  if (num % den !== 0n) {
    const market = 'symbol' in inst && typeof inst.symbol === 'string' ? `${inst.symbol} ` : '';
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `price ${value.trim()} is finer than ${market}prices go: the smallest price step is ${formatPrice(1n, inst)} (round it to the market's tick)`,
    });
  }
  return num / den;
}

/** `price_limit` → human price string (quote per base). */
export function formatPrice(priceLimit: bigint, inst: PriceScale): string {
  // price = priceLimit * 10^base / (price_scale * 10^quote); shown with up to 18 places.
  const places = 18;
  const num = priceLimit * 10n ** BigInt(inst.base_decimals) * 10n ** BigInt(places);
  const den = inst.price_scale * 10n ** BigInt(inst.quote_decimals);
  return formatUnits(num / den, places);
}
