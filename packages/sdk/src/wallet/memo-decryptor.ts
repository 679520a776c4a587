/**
 * Trial decryption of memos for one viewing key, fast enough to scan a ledger's every memo: the
 * same construction as `decryptFillMemo` and `decryptNoteMemo` of @nightjar/crypto (DESIGN 7:
 * X25519 with the ephemeral key, HKDF-SHA256 with info `venue-fill-v1` or `venue-note-v1` ‖ eph_pub
 * ‖ recipient_pub, ChaCha20-Poly1305 with a zero nonce), but with the recipient's key objects built
 * once instead of per memo.
 */
import { createDecipheriv, diffieHellman, hkdfSync, type KeyObject } from 'node:crypto';
import {
  decodeFillMemoPlaintext,
  decodeNoteMemoPlaintext,
  FILL_MEMO_BYTES,
  FILL_MEMO_INFO,
  NOTE_MEMO_BYTES,
  NOTE_MEMO_INFO,
  X25519_KEY_BYTES,
  x25519PrivateKeyObject,
  x25519PublicKeyObject,
  type FillMemo,
  type NoteMemo,
} from '@nightjar/crypto';

const TAG_BYTES = 16;
const NONCE = Buffer.alloc(12);
const FILL_INFO = Buffer.from(FILL_MEMO_INFO, 'ascii');
const NOTE_INFO = Buffer.from(NOTE_MEMO_INFO, 'ascii');
const EMPTY = Buffer.alloc(0);

/** Decrypts memos addressed to one viewing key; `undefined` for a memo that is not its. */
export class MemoDecryptor {
  private readonly privateKey: KeyObject;

  constructor(
    privateKey: Uint8Array,
    private readonly publicKey: Uint8Array,
  ) {
    this.privateKey = x25519PrivateKeyObject(privateKey);
  }

  /** The fill memo, or undefined when it is not addressed to this key (or is malformed). */
  open(bytes: Uint8Array): FillMemo | undefined {
    if (bytes.length !== FILL_MEMO_BYTES) return undefined;
    const plain = this.plaintext(FILL_INFO, bytes);
    try {
      return plain && decodeFillMemoPlaintext(plain);
    } catch {
      return undefined;
    }
  }

  /** A join-split's note memo, or undefined when it is not addressed to this key (or is malformed). */
  openNote(bytes: Uint8Array): NoteMemo | undefined {
    if (bytes.length !== NOTE_MEMO_BYTES) return undefined;
    const plain = this.plaintext(NOTE_INFO, bytes);
    try {
      return plain && decodeNoteMemoPlaintext(plain);
    } catch {
      return undefined;
    }
  }

  /** The plaintext of a sealed memo with HKDF info `info`, or undefined when it does not open. */
  private plaintext(info: Buffer, bytes: Uint8Array): Buffer | undefined {
    const eph = bytes.subarray(0, X25519_KEY_BYTES);
    try {
      const shared = diffieHellman({ privateKey: this.privateKey, publicKey: x25519PublicKeyObject(eph) });
      if (shared.every((b) => b === 0)) return undefined;
      const key = Buffer.from(
        hkdfSync('sha256', shared, EMPTY, Buffer.concat([info, eph, this.publicKey]), 32),
      );
      const decipher = createDecipheriv('chacha20-poly1305', key, NONCE, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(X25519_KEY_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      return undefined;
    }
  }
}
