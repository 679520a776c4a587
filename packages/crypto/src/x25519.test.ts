import { diffieHellman, generateKeyPairSync } from 'node:crypto';
import { bytesToHex, hexToBytes } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import {
  generateX25519KeyPair,
  isContributoryX25519,
  x25519PublicKeyFromPrivate,
  x25519PublicKeyObject,
  x25519SharedSecret,
} from './x25519.js';

const p = 2n ** 255n - 19n;
const A = 486662n;

const modP = (x: bigint): bigint => ((x % p) + p) % p;
function invP(x: bigint): bigint {
  let result = 1n;
  let base = modP(x);
  for (let e = p - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % p;
    base = (base * base) % p;
  }
  return result;
}
/** u-coordinate of 2P on Curve25519 (or its twist) from u(P): (u²-1)² / (4u(u²+Au+1)). */
const doubleU = (u: bigint): bigint => modP((u * u - 1n) ** 2n * invP(4n * u * (u * u + A * u + 1n)));

/** Little-endian 32-byte encoding, as X25519 public keys are written. */
function encodeU(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0, v = value; i < 32; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

// The u-coordinates of every point of order dividing 8 on the curve or its twist: 0 (order 2;
// on both), 1 and p-1 (order 4 on one of them each), and the two order-8 points of the curve.
const ORDER8_A = 325606250916557431795983626356110631294008115727848805560023387167927233504n;
const ORDER8_B = 39382357235489614581723060781553021112529911719440698176882885853963445705823n;
const SMALL_ORDER_U = [0n, 1n, p - 1n, ORDER8_A, ORDER8_B];

// Every 32-byte string that decodes to one of them: canonical, non-canonical (u + p for u < 19,
// i.e. p and p+1) and each with the ignored top bit (2^255) set. 14 encodings, libsodium's list.
const LOW_ORDER_ENCODINGS = [...SMALL_ORDER_U, p, p + 1n].flatMap((u) => [
  encodeU(u),
  encodeU(u + 2n ** 255n),
]);

describe('the low-order list is what the math says', () => {
  it('the order-8 u values double to ±1, which double to 0 (order 4, then 2)', () => {
    for (const u of [ORDER8_A, ORDER8_B]) {
      expect(u).toBeLessThan(p);
      const twice = doubleU(u);
      expect([1n, p - 1n]).toContain(twice);
      expect(doubleU(twice)).toBe(0n);
    }
    expect(doubleU(1n)).toBe(0n);
    expect(doubleU(p - 1n)).toBe(0n);
  });

  it('has 14 distinct encodings, including the well-known byte strings', () => {
    const hex = LOW_ORDER_ENCODINGS.map(bytesToHex);
    expect(new Set(hex).size).toBe(14);
    expect(hex).toContain('e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800');
    expect(hex).toContain('5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157');
    expect(hex).toContain('ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f');
    expect(hex).toContain('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff');
    expect(hex).toContain('eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff');
    expect(hex).toContain('0000000000000000000000000000000000000000000000000000000000000080');
  });
});

describe('isContributoryX25519', () => {
  it('rejects every low-order encoding', () => {
    for (const encoding of LOW_ORDER_ENCODINGS) {
      expect(isContributoryX25519(encoding), bytesToHex(encoding)).toBe(false);
    }
  });

  it('those encodings really give an all-zero secret (or an OpenSSL refusal) for any scalar', () => {
    const { privateKey } = generateKeyPairSync('x25519');
    for (const encoding of LOW_ORDER_ENCODINGS) {
      let secret: Buffer | undefined;
      try {
        secret = diffieHellman({ privateKey, publicKey: x25519PublicKeyObject(encoding) });
      } catch {
        secret = undefined;
      }
      expect(secret === undefined || secret.every((b) => b === 0)).toBe(true);
    }
  });

  it('accepts freshly generated keys', () => {
    for (let i = 0; i < 32; i++) expect(isContributoryX25519(generateX25519KeyPair().publicKey)).toBe(true);
  });

  it('accepts encodings next to the low-order ones (2, p-2, p+2, order-8 u + 1)', () => {
    for (const u of [2n, p - 2n, p + 2n, ORDER8_A + 1n, ORDER8_B - 1n, 9n]) {
      expect(isContributoryX25519(encodeU(u))).toBe(true);
    }
  });

  it('rejects keys of the wrong length', () => {
    expect(isContributoryX25519(new Uint8Array(31).fill(9))).toBe(false);
    expect(isContributoryX25519(new Uint8Array(33).fill(9))).toBe(false);
    expect(isContributoryX25519('09' as unknown as Uint8Array)).toBe(false);
  });
});

describe('raw X25519 keys', () => {
  it('reproduce the RFC 7748 section 6.1 Diffie-Hellman vector', () => {
    const alicePrivate = hexToBytes('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a');
    const bobPrivate = hexToBytes('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb');
    const alicePublic = x25519PublicKeyFromPrivate(alicePrivate);
    const bobPublic = x25519PublicKeyFromPrivate(bobPrivate);
    expect(bytesToHex(alicePublic)).toBe('8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a');
    expect(bytesToHex(bobPublic)).toBe('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f');
    const shared = '4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742';
    expect(bytesToHex(x25519SharedSecret(alicePrivate, bobPublic))).toBe(shared);
    expect(bytesToHex(x25519SharedSecret(bobPrivate, alicePublic))).toBe(shared);
  });

  it('generated pairs are consistent and distinct', () => {
    const a = generateX25519KeyPair();
    const b = generateX25519KeyPair();
    expect(a.privateKey).toHaveLength(32);
    expect(a.publicKey).toHaveLength(32);
    expect(x25519PublicKeyFromPrivate(a.privateKey)).toEqual(a.publicKey);
    expect(bytesToHex(a.publicKey)).not.toBe(bytesToHex(b.publicKey));
    expect(x25519SharedSecret(a.privateKey, b.publicKey)).toEqual(
      x25519SharedSecret(b.privateKey, a.publicKey),
    );
  });

  it('a low-order peer key throws a typed error instead of returning zeros', () => {
    const { privateKey } = generateX25519KeyPair();
    expect(() => x25519SharedSecret(privateKey, encodeU(0n))).toThrow(
      expect.objectContaining({ code: 'X25519_NON_CONTRIBUTORY' }),
    );
    expect(() => x25519SharedSecret(privateKey, new Uint8Array(5))).toThrow(
      expect.objectContaining({ code: 'KEY_INVALID' }),
    );
  });
});
