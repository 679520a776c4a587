import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TOKEN_LENGTH, TokenCodec } from './tokens.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';

describe('TokenCodec', () => {
  const codec = new TokenCodec(randomBytes(32));

  it('round-trips the claims in a fixed-length token', () => {
    const { token, claims } = codec.issue(ACCOUNT, 1_750_000_000, 1_750_000_003_600_123);
    expect(token).toHaveLength(TOKEN_LENGTH);
    expect(TOKEN_LENGTH).toBe(114);
    expect(token).toMatch(/^nj1\.[A-Za-z0-9_-]{66}\.[A-Za-z0-9_-]{43}$/);
    expect(claims.jti).toMatch(/^[0-9a-f]{32}$/);
    expect(codec.verify(token)).toEqual({
      accountId: ACCOUNT,
      jti: claims.jti,
      issuedAtS: 1_750_000_000,
      expiresAtMs: 1_750_000_003_600_123,
    });
  });

  it('gives every token a fresh jti', () => {
    const a = codec.issue(ACCOUNT, 1, 2);
    const b = codec.issue(ACCOUNT, 1, 2);
    expect(a.claims.jti).not.toBe(b.claims.jti);
    expect(a.token).not.toBe(b.token);
  });

  it('rejects any single-character change', () => {
    const { token } = codec.issue(ACCOUNT, 1_750_000_000, 1_750_000_003_600_000);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    for (let i = 0; i < token.length; i++) {
      const replacement = alphabet[(alphabet.indexOf(token[i]!) + 1) % alphabet.length]!;
      const tampered = token.slice(0, i) + replacement + token.slice(i + 1);
      expect(codec.verify(tampered), `position ${i}`).toBeUndefined();
    }
  });

  it('rejects tokens under another key, wrong lengths and junk', () => {
    const { token } = codec.issue(ACCOUNT, 1, 2);
    expect(new TokenCodec(randomBytes(32)).verify(token)).toBeUndefined();
    expect(codec.verify(token.slice(0, -1))).toBeUndefined();
    expect(codec.verify(`${token}A`)).toBeUndefined();
    expect(codec.verify('')).toBeUndefined();
    expect(codec.verify('x'.repeat(TOKEN_LENGTH))).toBeUndefined();
    expect(codec.verify(`nj2${token.slice(3)}`)).toBeUndefined();
    expect(codec.verify(token.replace('.', '+').replace(/\.(?=[^.]*$)/, '/'))).toBeUndefined();
  });

  it('refuses bad inputs to issue and bad keys', () => {
    expect(() => codec.issue('ABC', 1, 2)).toThrow(RangeError);
    expect(() => codec.issue(ACCOUNT, -1, 2)).toThrow(RangeError);
    expect(() => codec.issue(ACCOUNT, 1, 2.5)).toThrow(RangeError);
    expect(() => new TokenCodec(randomBytes(16))).toThrow(RangeError);
  });
});
