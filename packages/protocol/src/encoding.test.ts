import { describe, expect, it } from 'vitest';
import {
  addressToBase58,
  bigIntToBytes,
  bytesToBigInt,
  bytesToHex,
  FIELD_MODULUS,
  fieldToHex,
  hexToBytes,
  isHexOfWidth,
  mintToFields,
  parseAddress,
  parseFieldHex,
} from './encoding.js';

describe('encoding', () => {
  it('hex: exact width, either case in, lowercase out', () => {
    expect(isHexOfWidth('aB'.repeat(16), 16)).toBe(true);
    expect(isHexOfWidth('ab'.repeat(15), 16)).toBe(false);
    expect(isHexOfWidth('zz'.repeat(16), 16)).toBe(false);
    expect(bytesToHex(hexToBytes('ABcd'))).toBe('abcd');
    expect(() => hexToBytes('abc')).toThrow(TypeError);
  });

  it('field elements must be below r', () => {
    expect(parseFieldHex(fieldToHex(FIELD_MODULUS - 1n))).toBe(FIELD_MODULUS - 1n);
    expect(parseFieldHex(FIELD_MODULUS.toString(16).padStart(64, '0'))).toBeUndefined();
    expect(parseFieldHex('ff'.repeat(32))).toBeUndefined();
    expect(parseFieldHex('00'.repeat(31))).toBeUndefined();
    expect(() => fieldToHex(FIELD_MODULUS)).toThrow(RangeError);
  });

  it('big-endian integer conversions round-trip and refuse overflow', () => {
    expect(bytesToBigInt(bigIntToBytes(0x0102n, 4))).toBe(0x0102n);
    expect(bytesToHex(bigIntToBytes(0x0102n, 4))).toBe('00000102');
    expect(() => bigIntToBytes(1n << 32n, 4)).toThrow(RangeError);
  });

  it('addresses are Base58 of exactly 32 bytes', () => {
    const bytes = new Uint8Array(32).fill(9);
    const b58 = addressToBase58(bytes);
    expect(parseAddress(b58)).toEqual(bytes);
    expect(parseAddress(addressToBase58(new Uint8Array(32)))).toEqual(new Uint8Array(32));
    expect(parseAddress('0OIl' + b58.slice(4))).toBeUndefined();
    expect(parseAddress(b58.slice(0, 20))).toBeUndefined();
    expect(parseAddress(42)).toBeUndefined();
  });

  it('splits a mint into hi = bytes 0..16 and lo = bytes 16..32', () => {
    const mint = Uint8Array.from({ length: 32 }, (_, i) => i);
    const { mintHi, mintLo } = mintToFields(mint);
    expect(mintHi).toBe(BigInt('0x000102030405060708090a0b0c0d0e0f'));
    expect(mintLo).toBe(BigInt('0x101112131415161718191a1b1c1d1e1f'));
  });
});
