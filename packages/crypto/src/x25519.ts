/**
 * X25519 keys as raw 32-byte strings (RFC 7748), on node:crypto, and the contributory check of
 * DESIGN.md section 3: a public key is contributory when X25519 with a fixed non-zero probe scalar
 * gives a non-all-zero shared secret. Clamping makes every scalar a multiple of 8, so exactly the
 * low-order encodings (order 1, 2, 4, 8, canonical or not, top bit set or not) fail.
 */
import {
  type KeyObject,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
} from 'node:crypto';
import { KeyFormatError, NonContributoryKeyError } from './errors.js';

export const X25519_KEY_BYTES = 32;

// DER wrappers of a raw key: SubjectPublicKeyInfo and PKCS#8 PrivateKeyInfo with OID 1.3.101.110.
const SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');

export interface X25519KeyPair {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

function checkLength(key: Uint8Array, what: string): void {
  if (!(key instanceof Uint8Array) || key.length !== X25519_KEY_BYTES) {
    throw new KeyFormatError(`${what} must be ${X25519_KEY_BYTES} bytes`);
  }
}

/** node:crypto KeyObject of a raw 32-byte public key (any 32 bytes are accepted, as RFC 7748 says). */
export function x25519PublicKeyObject(publicKey: Uint8Array): KeyObject {
  checkLength(publicKey, 'X25519 public key');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
}

/** node:crypto KeyObject of a raw 32-byte private scalar (clamped by X25519 itself). */
export function x25519PrivateKeyObject(privateKey: Uint8Array): KeyObject {
  checkLength(privateKey, 'X25519 private key');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, privateKey]), format: 'der', type: 'pkcs8' });
}

function rawFromJwk(key: KeyObject, field: 'x' | 'd'): Uint8Array {
  const value = key.export({ format: 'jwk' })[field];
  if (typeof value !== 'string') throw new KeyFormatError(`X25519 key has no ${field}`);
  return new Uint8Array(Buffer.from(value, 'base64url'));
}

export function generateX25519KeyPair(): X25519KeyPair {
  const { privateKey } = generateKeyPairSync('x25519');
  return { privateKey: rawFromJwk(privateKey, 'd'), publicKey: rawFromJwk(privateKey, 'x') };
}

export function x25519PublicKeyFromPrivate(privateKey: Uint8Array): Uint8Array {
  return rawFromJwk(x25519PrivateKeyObject(privateKey), 'x');
}

/**
 * The raw X25519 shared secret. Throws NonContributoryKeyError when it would be all zero (OpenSSL
 * refuses to derive it, and we check the bytes as well in case a build does not).
 */
export function x25519SharedSecret(privateKey: Uint8Array | KeyObject, publicKey: Uint8Array): Uint8Array {
  const privateObject = privateKey instanceof Uint8Array ? x25519PrivateKeyObject(privateKey) : privateKey;
  const publicObject = x25519PublicKeyObject(publicKey);
  let secret: Buffer;
  try {
    secret = diffieHellman({ privateKey: privateObject, publicKey: publicObject });
  } catch {
    throw new NonContributoryKeyError();
  }
  if (secret.every((byte) => byte === 0)) throw new NonContributoryKeyError();
  return new Uint8Array(secret);
}

/** Fixed probe scalar: SHA-256 of a label, clamped per RFC 7748 (non-zero by construction). */
const PROBE_SCALAR = (() => {
  const k = createHash('sha256').update('nightjar/x25519-contributory-probe/v1').digest();
  k[0] = k[0]! & 248;
  k[31] = (k[31]! & 127) | 64;
  return new Uint8Array(k);
})();
const PROBE_KEY = x25519PrivateKeyObject(PROBE_SCALAR);

const CONTRIBUTORY_CACHE_LIMIT = 10_000;
const contributoryCache = new Map<string, boolean>();

/** True when `publicKey` is 32 bytes and X25519(probe, publicKey) is not all zero. */
export function isContributoryX25519(publicKey: Uint8Array): boolean {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== X25519_KEY_BYTES) return false;
  // Clients reuse viewing keys, and the answer never changes: remember recent ones.
  const id = Buffer.from(publicKey).toString('hex');
  const known = contributoryCache.get(id);
  if (known !== undefined) return known;
  let result: boolean;
  try {
    x25519SharedSecret(PROBE_KEY, publicKey);
    result = true;
  } catch {
    result = false;
  }
  if (contributoryCache.size >= CONTRIBUTORY_CACHE_LIMIT)
    contributoryCache.delete(contributoryCache.keys().next().value as string);
  contributoryCache.set(id, result);
  return result;
}
