import { randomBytes, generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ed25519PublicKey,
  ed25519Sign,
  ed25519VerifyStrict,
  isAcceptablePublicKey,
  isCanonicalPointEncoding,
  isSmallOrderPoint,
} from './ed25519.js';

/* A slow, independent edwards25519 reference used only to check the small-order list. */
const p = (1n << 255n) - 19n;
const mod = (a: bigint) => ((a % p) + p) % p;
const pow = (b: bigint, e: bigint) => {
  let r = 1n;
  b = mod(b);
  while (e > 0n) {
    if (e & 1n) r = mod(r * b);
    b = mod(b * b);
    e >>= 1n;
  }
  return r;
};
const inv = (a: bigint) => pow(a, p - 2n);
const d = mod(-121665n * inv(121666n));
const SQRT_M1 = pow(2n, (p - 1n) / 4n);
type Pt = [bigint, bigint];
function decode(bytes: Uint8Array): Pt | undefined {
  const b = Buffer.from(bytes);
  const sign = b[31]! >> 7;
  b[31]! &= 0x7f;
  const y = BigInt('0x' + Buffer.from(b).reverse().toString('hex'));
  if (y >= p) return undefined;
  const u = mod(y * y - 1n);
  const v = mod(d * y * y + 1n);
  let x = mod(u * pow(v, 3n) * pow(u * pow(v, 7n), (p - 5n) / 8n));
  if (mod(v * x * x) !== u) {
    if (mod(v * x * x) === mod(-u)) x = mod(x * SQRT_M1);
    else return undefined;
  }
  if (x === 0n && sign === 1) return undefined;
  if (Number(x & 1n) !== sign) x = mod(-x);
  return [x, y];
}
function encode([x, y]: Pt): Uint8Array {
  const b = Buffer.from(y.toString(16).padStart(64, '0'), 'hex').reverse();
  if (x & 1n) b[31]! |= 0x80;
  return Uint8Array.from(b);
}
function add([x1, y1]: Pt, [x2, y2]: Pt): Pt {
  const t = mod(d * x1 * x2 * y1 * y2);
  return [mod((x1 * y2 + y1 * x2) * inv(1n + t)), mod((y1 * y2 + x1 * x2) * inv(1n - t))];
}
const times8 = (pt: Pt) => {
  let q = pt;
  for (let i = 0; i < 3; i++) q = add(q, q);
  return q;
};
const isIdentity = ([x, y]: Pt) => x === 0n && y === 1n;

describe('small-order public keys', () => {
  it('the eight torsion points, generated from one point of order 8, are all refused', () => {
    const t = decode(Buffer.from('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 'hex'))!;
    expect(isIdentity(times8(t))).toBe(true);
    let q: Pt = [0n, 1n];
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      q = add(q, t);
      const enc = encode(q);
      seen.add(Buffer.from(enc).toString('hex'));
      expect(isSmallOrderPoint(enc)).toBe(true);
      expect(isAcceptablePublicKey(enc)).toBe(false);
    }
    expect(seen.size).toBe(8);
  });

  it('refuses the sign-bit variants of each small-order encoding', () => {
    for (const h of ['01' + '00'.repeat(31), 'ec' + 'ff'.repeat(30) + '7f', '00'.repeat(32)]) {
      const b = Buffer.from(h, 'hex');
      b[31]! |= 0x80;
      expect(isAcceptablePublicKey(b)).toBe(false);
    }
  });

  it('the canonical bound is exact: y = p - 1 is canonical (with either sign bit), y = p is not', () => {
    const le = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex').reverse();
    expect(isCanonicalPointEncoding(le(p - 1n))).toBe(true);
    const signed = le(p - 1n);
    signed[31]! |= 0x80;
    expect(isCanonicalPointEncoding(signed)).toBe(true);
    expect(isCanonicalPointEncoding(le(p))).toBe(false);
    expect(isCanonicalPointEncoding(le(p + 5n))).toBe(false);
  });

  it('refuses non-canonical encodings (y >= p) and accepts genuine keys', () => {
    const pEnc = Buffer.from(p.toString(16).padStart(64, '0'), 'hex').reverse();
    expect(isCanonicalPointEncoding(pEnc)).toBe(false);
    expect(isAcceptablePublicKey(pEnc)).toBe(false);
    for (let i = 0; i < 20; i++) {
      const pub = ed25519PublicKey(randomBytes(32));
      expect(isAcceptablePublicKey(pub)).toBe(true);
      expect(isIdentity(times8(decode(pub)!))).toBe(false);
    }
  });
});

describe('ed25519VerifyStrict', () => {
  const seed = new Uint8Array(32).fill(7);
  const pub = ed25519PublicKey(seed);
  const msg = new Uint8Array(32).fill(1);

  it('agrees with node:crypto key generation and signing', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    const sig = sign(null, msg, privateKey);
    expect(ed25519VerifyStrict(raw, msg, sig)).toBe(true);
  });

  it('verifies its own signatures and refuses another message or key', () => {
    const sig = ed25519Sign(seed, msg);
    expect(ed25519VerifyStrict(pub, msg, sig)).toBe(true);
    expect(ed25519VerifyStrict(pub, new Uint8Array(32), sig)).toBe(false);
    expect(ed25519VerifyStrict(ed25519PublicKey(new Uint8Array(32).fill(8)), msg, sig)).toBe(false);
  });

  it('refuses a signature whose S is not reduced (S + L), which is the same signature malleated', () => {
    const sig = Buffer.from(ed25519Sign(seed, msg));
    const L = (1n << 252n) + 27742317777372353535851937790883648493n;
    const s = BigInt('0x' + Buffer.from(sig.subarray(32)).reverse().toString('hex'));
    const malleated = Buffer.concat([
      sig.subarray(0, 32),
      Buffer.from((s + L).toString(16).padStart(64, '0'), 'hex').reverse(),
    ]);
    expect(ed25519VerifyStrict(pub, msg, malleated)).toBe(false);
  });

  it('refuses the identity-key universal forgery that plain node:crypto verification accepts', () => {
    const identity = Buffer.from('01' + '00'.repeat(31), 'hex');
    const forged = Buffer.concat([identity, Buffer.alloc(32)]);
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), identity]);
    let nodeAccepts: boolean;
    try {
      nodeAccepts = verify(null, msg, { key: spki, format: 'der', type: 'spki' }, forged);
    } catch {
      nodeAccepts = false;
    }
    // Whatever OpenSSL does, the venue must refuse.
    expect(typeof nodeAccepts).toBe('boolean');
    expect(ed25519VerifyStrict(identity, msg, forged)).toBe(false);
  });

  it('never throws on malformed lengths', () => {
    expect(ed25519VerifyStrict(pub.subarray(0, 31), msg, new Uint8Array(64))).toBe(false);
    expect(ed25519VerifyStrict(pub, msg, new Uint8Array(63))).toBe(false);
  });
});
