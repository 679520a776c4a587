/**
 * Bearer tokens the engine verifies without touching the database: a fixed-length binary payload
 * and its HMAC-SHA256 under a 32-byte key the store keeps (so tokens survive a restart).
 *
 *   token   = "nj1." base64url(payload) "." base64url(mac)        (4 + 66 + 1 + 43 = 114 chars)
 *   payload = version (1 byte, 0x01)
 *             ‖ account_id (16 bytes)
 *             ‖ jti (16 random bytes)
 *             ‖ issued_at_s (u64 big-endian, Unix seconds)
 *             ‖ expires_at_ms (u64 big-endian, Unix milliseconds)           (49 bytes)
 *   mac     = HMAC-SHA256(key, "nightjar/bearer-token/v1" ‖ payload)
 *
 * Nothing here decides validity beyond integrity: expiry, revocation, operator invalidation and
 * suspension are the {@link AccountService}'s rules.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'nj1.';
const VERSION = 1;
const PAYLOAD_BYTES = 1 + 16 + 16 + 8 + 8;
const MAC_BYTES = 32;
const PAYLOAD_CHARS = Math.ceil((PAYLOAD_BYTES * 4) / 3);
const MAC_CHARS = Math.ceil((MAC_BYTES * 4) / 3);
/** Length of every well-formed token; anything else is refused before any work. */
export const TOKEN_LENGTH = PREFIX.length + PAYLOAD_CHARS + 1 + MAC_CHARS;
const DOMAIN = Buffer.from('nightjar/bearer-token/v1', 'utf8');
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const ACCOUNT_ID = /^[0-9a-f]{32}$/;

export interface TokenClaims {
  /** 32 hex characters. */
  accountId: string;
  /** 32 hex characters, unique per token. */
  jti: string;
  /** Unix seconds (one-second resolution, compared with `tokens_valid_after_s`). */
  issuedAtS: number;
  /** Unix milliseconds; the token is invalid from this instant on. */
  expiresAtMs: number;
}

export class TokenCodec {
  private readonly key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new RangeError('token key must be 32 bytes');
    this.key = Buffer.from(key);
  }

  /** A fresh token for `accountId` with a random jti. */
  issue(accountId: string, issuedAtS: number, expiresAtMs: number): { token: string; claims: TokenClaims } {
    if (!ACCOUNT_ID.test(accountId)) throw new RangeError('account id must be 32 lowercase hex characters');
    if (!Number.isSafeInteger(issuedAtS) || issuedAtS < 0) throw new RangeError('issuedAtS out of range');
    if (!Number.isSafeInteger(expiresAtMs) || expiresAtMs < 0)
      throw new RangeError('expiresAtMs out of range');
    const jti = randomBytes(16);
    const payload = Buffer.alloc(PAYLOAD_BYTES);
    payload[0] = VERSION;
    payload.write(accountId, 1, 16, 'hex');
    jti.copy(payload, 17);
    payload.writeBigUInt64BE(BigInt(issuedAtS), 33);
    payload.writeBigUInt64BE(BigInt(expiresAtMs), 41);
    const token = `${PREFIX}${payload.toString('base64url')}.${this.mac(payload).toString('base64url')}`;
    return { token, claims: { accountId, jti: jti.toString('hex'), issuedAtS, expiresAtMs } };
  }

  /** The claims of an authentic token, or `undefined` for anything malformed or forged. */
  verify(token: string): TokenClaims | undefined {
    if (token.length !== TOKEN_LENGTH || !token.startsWith(PREFIX)) return undefined;
    const payloadText = token.slice(PREFIX.length, PREFIX.length + PAYLOAD_CHARS);
    const dot = token.charAt(PREFIX.length + PAYLOAD_CHARS);
    const macText = token.slice(PREFIX.length + PAYLOAD_CHARS + 1);
    if (dot !== '.' || !BASE64URL.test(payloadText) || !BASE64URL.test(macText)) return undefined;
    const payload = Buffer.from(payloadText, 'base64url');
    const mac = Buffer.from(macText, 'base64url');
    // Only the canonical encoding is accepted, so one token has exactly one spelling.
    if (payload.length !== PAYLOAD_BYTES || mac.length !== MAC_BYTES) return undefined;
    if (payload.toString('base64url') !== payloadText || mac.toString('base64url') !== macText)
      return undefined;
    if (!timingSafeEqual(mac, this.mac(payload))) return undefined;
    if (payload[0] !== VERSION) return undefined;
    const issuedAt = payload.readBigUInt64BE(33);
    const expiresAt = payload.readBigUInt64BE(41);
    if (issuedAt > BigInt(Number.MAX_SAFE_INTEGER) || expiresAt > BigInt(Number.MAX_SAFE_INTEGER))
      return undefined;
    return {
      accountId: payload.subarray(1, 17).toString('hex'),
      jti: payload.subarray(17, 33).toString('hex'),
      issuedAtS: Number(issuedAt),
      expiresAtMs: Number(expiresAt),
    };
  }

  private mac(payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(DOMAIN).update(payload).digest();
  }
}
