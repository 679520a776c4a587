/**
 * Encryption of the settlement journal's bodies at rest. A journaled plan holds its notes'
 * openings (owner commitment, inner hash, amounts): whoever reads `settlement.sqlite` must learn
 * none of them. Each body is sealed with AES-256-GCM under a key derived from the settlement key
 * (beside the row MAC's, under another label), a random 96-bit nonce per write, and the row's
 * identity (table and key columns) as associated data, so a body moved to another row fails too.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { encodeRowFields, type RowField } from './journal-mac.js';

/** HKDF info: this key seals journal bodies and nothing else. */
const SEAL_KEY_LABEL = 'nightjar/settlement-journal/row-aead/v1';
/** Marks a sealed body (a body from before sealing is JSON, `{`...). */
export const SEALED_PREFIX = 'aead1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class RowSeal {
  private readonly key: Buffer;

  /** `secret`: the settlement key's secret bytes. */
  constructor(secret: Uint8Array) {
    this.key = Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), SEAL_KEY_LABEL, 32));
  }

  seal(table: string, identity: readonly RowField[], plaintext: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(encodeRowFields(table, identity));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
  }

  /** The plaintext, or undefined for a body that is not sealed or fails authentication. */
  open(table: string, identity: readonly RowField[], sealed: string): string | undefined {
    if (!sealed.startsWith(SEALED_PREFIX)) return undefined;
    const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64');
    if (bytes.length < NONCE_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES));
      decipher.setAAD(encodeRowFields(table, identity));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const body = bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
