/**
 * Fill-memo encryption (DESIGN.md section 7), an ECIES over X25519:
 *
 *   eph            fresh X25519 key pair per memo
 *   shared         X25519(eph_priv, recipient_pub)
 *   key            HKDF-SHA256(ikm = shared, salt = empty, info = "venue-fill-v1" ‖ eph_pub ‖ recipient_pub, 32 bytes)
 *   ciphertext     ChaCha20-Poly1305(key, nonce = 12 zero bytes, no AAD) over the 146-byte plaintext of memo-layout.ts
 *   wire           eph_pub (32) ‖ ciphertext (146) ‖ tag (16) = 194 bytes
 *
 * The constant nonce is safe because every key encrypts exactly one message: the key is derived
 * from a fresh ephemeral secret, and binding both public keys in the HKDF info ties it to this
 * sender/recipient pair. (A caller-supplied ephemeral key is for test vectors only; reusing one
 * for two memos to the same recipient would reuse a key and nonce.)
 */
import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';
import { KeyFormatError, MemoDecryptError, NonContributoryKeyError } from './errors.js';
import {
  type FillMemo,
  FILL_MEMO_PLAINTEXT_BYTES,
  decodeFillMemoPlaintext,
  encodeFillMemoPlaintext,
} from './memo-layout.js';
import {
  X25519_KEY_BYTES,
  generateX25519KeyPair,
  isContributoryX25519,
  x25519PublicKeyFromPrivate,
  x25519SharedSecret,
} from './x25519.js';

export const FILL_MEMO_INFO = 'venue-fill-v1';
const TAG_BYTES = 16;
const NONCE = new Uint8Array(12);
export const FILL_MEMO_BYTES = X25519_KEY_BYTES + FILL_MEMO_PLAINTEXT_BYTES + TAG_BYTES;

export interface EncryptFillMemoOptions {
  /** Raw 32-byte ephemeral private key. Test vectors only: never reuse one. Default: fresh. */
  ephemeralPrivateKey?: Uint8Array;
}

function memoKey(
  info: string,
  shared: Uint8Array,
  ephemeralPublic: Uint8Array,
  recipientPublic: Uint8Array,
): Buffer {
  const bytes = Buffer.concat([Buffer.from(info, 'ascii'), ephemeralPublic, recipientPublic]);
  return Buffer.from(hkdfSync('sha256', shared, new Uint8Array(0), bytes, 32));
}

/** The memo wire size for a plaintext of `plaintextBytes`: eph_pub ‖ ciphertext ‖ tag. */
export function sealedMemoBytes(plaintextBytes: number): number {
  return X25519_KEY_BYTES + plaintextBytes + TAG_BYTES;
}

/**
 * The ECIES above with the HKDF info string `info`: fill memos use `venue-fill-v1`, join-split
 * note memos `venue-note-v1` (note-memo.ts), so a key never opens the other kind.
 */
export function sealMemo(
  info: string,
  recipientPublicKey: Uint8Array,
  plaintext: Uint8Array,
  options: EncryptFillMemoOptions = {},
): Uint8Array {
  if (!(recipientPublicKey instanceof Uint8Array) || recipientPublicKey.length !== X25519_KEY_BYTES) {
    throw new KeyFormatError(`recipient key must be ${X25519_KEY_BYTES} bytes`);
  }
  if (!isContributoryX25519(recipientPublicKey)) throw new NonContributoryKeyError();
  const ephemeral = options.ephemeralPrivateKey
    ? {
        privateKey: options.ephemeralPrivateKey,
        publicKey: x25519PublicKeyFromPrivate(options.ephemeralPrivateKey),
      }
    : generateX25519KeyPair();
  const shared = x25519SharedSecret(ephemeral.privateKey, recipientPublicKey);
  const key = memoKey(info, shared, ephemeral.publicKey, recipientPublicKey);
  const cipher = createCipheriv('chacha20-poly1305', key, NONCE, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const out = new Uint8Array(sealedMemoBytes(plaintext.length));
  out.set(ephemeral.publicKey, 0);
  out.set(body, X25519_KEY_BYTES);
  out.set(cipher.getAuthTag(), X25519_KEY_BYTES + body.length);
  return out;
}

/** Opens a memo sealed by `sealMemo` with the same `info`; MemoDecryptError on any mismatch. */
export function openMemo(
  info: string,
  recipientPrivateKey: Uint8Array,
  bytes: Uint8Array,
  plaintextBytes: number,
): Buffer {
  const recipientPublic = x25519PublicKeyFromPrivate(recipientPrivateKey);
  const total = sealedMemoBytes(plaintextBytes);
  if (!(bytes instanceof Uint8Array) || bytes.length !== total) {
    throw new MemoDecryptError('memo has the wrong length');
  }
  const ephemeralPublic = bytes.subarray(0, X25519_KEY_BYTES);
  const body = bytes.subarray(X25519_KEY_BYTES, total - TAG_BYTES);
  const tag = bytes.subarray(total - TAG_BYTES);
  try {
    const shared = x25519SharedSecret(recipientPrivateKey, ephemeralPublic);
    const key = memoKey(info, shared, ephemeralPublic, recipientPublic);
    const decipher = createDecipheriv('chacha20-poly1305', key, NONCE, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch (cause) {
    throw new MemoDecryptError('memo does not decrypt', { cause });
  }
}

/**
 * Encrypts `memo` to `recipientPublicKey` (the order's viewing key). Throws NonContributoryKeyError
 * for a low-order recipient key, KeyFormatError for a key of the wrong size and MemoFormatError
 * when a memo field is out of range.
 */
export function encryptFillMemo(
  recipientPublicKey: Uint8Array,
  memo: FillMemo,
  options: EncryptFillMemoOptions = {},
): Uint8Array {
  return sealMemo(FILL_MEMO_INFO, recipientPublicKey, encodeFillMemoPlaintext(memo), options);
}

/**
 * Decrypts a memo with the recipient's raw private viewing key. Any truncation, extra byte,
 * tampered byte, low-order ephemeral key or wrong key throws MemoDecryptError.
 */
export function decryptFillMemo(recipientPrivateKey: Uint8Array, bytes: Uint8Array): FillMemo {
  if (!(bytes instanceof Uint8Array) || bytes.length !== FILL_MEMO_BYTES) {
    throw new MemoDecryptError('fill memo has the wrong length');
  }
  return decodeFillMemoPlaintext(
    openMemo(FILL_MEMO_INFO, recipientPrivateKey, bytes, FILL_MEMO_PLAINTEXT_BYTES),
  );
}
