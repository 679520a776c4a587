import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { wnaf } from './wnaf.js';

function valueOf(digits: Int8Array): bigint {
  let k = 0n;
  for (let i = digits.length - 1; i >= 0; i--) k = 2n * k + BigInt(digits[i] as number);
  return k;
}

function littleEndian(bytes: Uint8Array): bigint {
  return BigInt('0x' + (Buffer.from(bytes).reverse().toString('hex') || '0'));
}

describe('wnaf', () => {
  it('represents the integer, with odd digits below 2^(w-1) and w-sparse', () => {
    const cases: Uint8Array[] = [
      new Uint8Array(8),
      new Uint8Array(8).fill(0xff),
      Uint8Array.of(1),
      Uint8Array.of(0x80),
    ];
    for (let t = 0; t < 500; t++) cases.push(randomBytes(1 + (t % 9)));
    const bad: string[] = [];
    for (const bytes of cases) {
      for (let w = 2; w <= 6; w++) {
        const d = wnaf(bytes, 0, bytes.length, w);
        const what = `${Buffer.from(bytes).toString('hex')} w=${w}`;
        if (valueOf(d) !== littleEndian(bytes)) bad.push(`${what}: value`);
        d.forEach((v, i) => {
          if (v === 0) return;
          if (Math.abs(v) % 2 !== 1 || Math.abs(v) >= 1 << (w - 1)) bad.push(`${what}: digit ${v}`);
          for (let j = 1; j < w && i + j < d.length; j++) if (d[i + j] !== 0) bad.push(`${what}: not sparse`);
        });
      }
    }
    expect(bad).toEqual([]);
  });

  it('reads the given slice of a larger buffer', () => {
    const buf = randomBytes(24);
    expect(valueOf(wnaf(buf, 8, 8, 4))).toBe(littleEndian(buf.subarray(8, 16)));
  });
});
