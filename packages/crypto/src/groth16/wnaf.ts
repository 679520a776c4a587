/**
 * Width-w non-adjacent form of a non-negative integer given as little-endian bytes: digits d_i,
 * each 0 or odd with |d_i| < 2^(w-1), k = Σ d_i·2^i, and at most one non-zero digit in any w
 * consecutive ones. Fixed-window scalar multiplication with a table of odd multiples then needs
 * about bits/(w+1) additions. Works on Numbers (no BigInt), for per-proof scalars.
 */
export function wnaf(bytes: Uint8Array, offset: number, length: number, w: number): Int8Array {
  if (w < 2 || w > 7) throw new RangeError('wnaf: window out of range');
  const bits = length * 8;
  const bit = (i: number): number => (i < bits ? ((bytes[offset + (i >> 3)] as number) >> (i & 7)) & 1 : 0);
  const digits = new Int8Array(bits + 1);
  const full = 1 << w;
  let carry = 0;
  for (let i = 0; i <= bits;) {
    if (((bit(i) + carry) & 1) === 0) {
      carry = (bit(i) + carry) >> 1;
      i++;
      continue;
    }
    // The w bits from i on, plus the carry into bit i: odd, at most 2^w - 1.
    let value = carry;
    for (let j = 0; j < w; j++) value += bit(i + j) << j;
    const d = value >= full >> 1 ? value - full : value;
    digits[i] = d;
    carry = (value - d) >> w; // 0, or 1 when d was negative
    i += w;
  }
  return digits;
}
