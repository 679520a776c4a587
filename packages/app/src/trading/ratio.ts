/** Exact fractions of bigints, for figures (average cost, P&L) that must not drift as floats would. */

export interface Ratio {
  n: bigint;
  /** Always positive. */
  d: bigint;
}

const abs = (v: bigint) => (v < 0n ? -v : v);
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? abs(a) || 1n : gcd(b, a % b));

export function ratio(n: bigint, d = 1n): Ratio {
  if (d === 0n) throw new RangeError('ratio: zero denominator');
  const s = d < 0n ? -1n : 1n;
  const g = gcd(n, d);
  return { n: (s * n) / g, d: (s * d) / g };
}

export const add = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Ratio, b: Ratio): Ratio => add(a, { n: -b.n, d: b.d });
export const mul = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.n, a.d * b.d);
export const div = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d, a.d * b.n);

/** `r` as a decimal string with at most `places` places, truncated toward zero (trailing zeros dropped). */
export function formatRatio(r: Ratio, places: number): string {
  const scaled = (abs(r.n) * 10n ** BigInt(places)) / r.d;
  const scale = 10n ** BigInt(places);
  const frac = (scaled % scale).toString().padStart(places, '0').replace(/0+$/, '');
  const text = `${scaled / scale}${frac ? `.${frac}` : ''}`;
  return r.n < 0n && scaled !== 0n ? `-${text}` : text;
}
