/**
 * Authentication of the settlement journal's rows. Anyone who can write `settlement.sqlite` could
 * otherwise rewrite a journaled plan (an output's owner or amount) and have the next start's
 * recovery sign it. Each row carries HMAC-SHA-256 over its table, key columns and body, under a
 * key derived from the settlement key, which never leaves the engine: an edited or moved row
 * fails, and only the engine can write a row that passes.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** HKDF info: the MAC key is useless for anything but this journal's rows. */
const MAC_KEY_LABEL = 'nightjar/settlement-journal/row-mac/v1';

export type RowField = string | number | bigint;

/** A row's table and fields, each length-prefixed, so no two rows encode alike. */
export function encodeRowFields(table: string, fields: readonly RowField[]): Buffer {
  const parts: Buffer[] = [];
  for (const f of [table, ...fields]) {
    const bytes = Buffer.from(String(f), 'utf8');
    const len = Buffer.alloc(4);
    len.writeUInt32BE(bytes.length);
    parts.push(len, bytes);
  }
  return Buffer.concat(parts);
}

export class RowMac {
  private readonly key: Buffer;

  /** `secret`: the settlement key's secret bytes. */
  constructor(secret: Uint8Array) {
    this.key = Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), MAC_KEY_LABEL, 32));
  }

  /** The tag of a row (its table and fields, see {@link encodeRowFields}). */
  tag(table: string, fields: readonly RowField[]): string {
    return createHmac('sha256', this.key).update(encodeRowFields(table, fields)).digest('hex');
  }

  /** Constant-time comparison with the expected tag; a missing or malformed tag fails. */
  verify(table: string, fields: readonly RowField[], tag: string | null): boolean {
    if (tag === null || !/^[0-9a-f]{64}$/.test(tag)) return false;
    return timingSafeEqual(Buffer.from(this.tag(table, fields), 'hex'), Buffer.from(tag, 'hex'));
  }
}
