/**
 * Ed25519 over node:crypto with the strictness DESIGN.md section 2 demands. OpenSSL accepts
 * small-order public keys (a universal forgery under the identity key), so they are refused here,
 * together with non-canonical point encodings and non-canonical S.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

const P = (1n << 255n) - 19n;
/** Order of the prime subgroup. */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

/**
 * The eight small-order points of edwards25519 (identity, order 2, two of order 4, four of
 * order 8), written with the sign bit cleared: a key matching one of these, with either sign bit,
 * is refused.
 */
const SMALL_ORDER_Y_ENCODINGS = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
].map((h) => Buffer.from(h, 'hex'));

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Little-endian byte strings of p = 2^255 - 19 and of L, for constant-width comparisons. */
const P_LE = Buffer.from(P.toString(16).padStart(64, '0'), 'hex').reverse();
const L_LE = Buffer.from(L.toString(16).padStart(64, '0'), 'hex').reverse();

/** a < b for 32-byte little-endian integers, `a` with its top bit optionally cleared. */
function lessThanLE(a: Uint8Array, b: Uint8Array, clearTopBit: boolean): boolean {
  for (let i = 31; i >= 0; i--) {
    const x = i === 31 && clearTopBit ? a[i]! & 0x7f : a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y;
  }
  return false;
}

/** A point encoding is canonical when its y coordinate (sign bit cleared) is below p. */
export function isCanonicalPointEncoding(point: Uint8Array): boolean {
  return point.length === 32 && lessThanLE(point, P_LE, true);
}

/** True for any encoding of one of the eight small-order points. */
export function isSmallOrderPoint(point: Uint8Array): boolean {
  if (point.length !== 32) return false;
  const cleared = Buffer.from(point);
  cleared[31]! &= 0x7f;
  return SMALL_ORDER_Y_ENCODINGS.some((e) => e.equals(cleared));
}

/** A public key the venue will verify against: 32 bytes, canonical, not of small order. */
export function isAcceptablePublicKey(publicKey: Uint8Array): boolean {
  return publicKey.length === 32 && isCanonicalPointEncoding(publicKey) && !isSmallOrderPoint(publicKey);
}

/** Key objects of recently seen public keys: building one costs as much as a verification. */
const KEY_CACHE_LIMIT = 10_000;
const keyCache = new Map<string, KeyObject>();

function publicKeyObject(publicKey: Uint8Array): KeyObject {
  const id = Buffer.from(publicKey).toString('hex');
  let key = keyCache.get(id);
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value as string);
    keyCache.set(id, key);
  }
  return key;
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError('Ed25519 seed must be 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The 32-byte public key of a 32-byte seed (RFC 8032 private key). */
export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  const spki = createPublicKey(privateKeyObject(seed)).export({ format: 'der', type: 'spki' });
  return Uint8Array.from(spki.subarray(SPKI_PREFIX.length));
}

/** Pure Ed25519 signature (64 bytes) of `message`. */
export function ed25519Sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
  return Uint8Array.from(sign(null, message, privateKeyObject(seed)));
}

/**
 * Strict verification: refuses small-order or non-canonical keys, non-canonical R and S >= L,
 * then runs RFC 8032 verification. Never throws on malformed input.
 */
export function ed25519VerifyStrict(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (signature.length !== 64 || !isAcceptablePublicKey(publicKey)) return false;
  if (!isCanonicalPointEncoding(signature.subarray(0, 32))) return false;
  if (!lessThanLE(signature.subarray(32, 64), L_LE, false)) return false;
  try {
    return verify(null, message, publicKeyObject(publicKey), signature);
  } catch {
    return false;
  }
}
