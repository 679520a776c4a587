import { createDecipheriv, hkdfSync } from 'node:crypto';
import { FIELD_MODULUS, U64_MAX, bytesToHex, hexToBytes } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import { seededBytes, seededFieldElements } from '../test/helpers/seeded.js';
import { isCryptoError } from './errors.js';
import { FILL_MEMO_BYTES, decryptFillMemo, encryptFillMemo } from './memo.js';
import {
  type FillMemo,
  FILL_MEMO_PLAINTEXT_BYTES,
  decodeFillMemoPlaintext,
  encodeFillMemoPlaintext,
} from './memo-layout.js';
import { generateX25519KeyPair, x25519PublicKeyFromPrivate, x25519SharedSecret } from './x25519.js';

const recipient = generateX25519KeyPair();
const memo: FillMemo = {
  orderId: seededBytes('memo-order', 0, 16),
  matchId: 0x0102030405060708n,
  tradeAmount: 1_500_000n,
  changeAmount: 0n,
  feeAmount: U64_MAX,
  outputInners: seededFieldElements('memo-inners', 3),
};

function decryptError(run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch (err) {
    return isCryptoError(err, 'MEMO_DECRYPT_FAILED');
  }
}

describe('plaintext layout', () => {
  it('is the documented 146 bytes', () => {
    const bytes = encodeFillMemoPlaintext({ ...memo, outputInners: [1n, FIELD_MODULUS - 1n] });
    expect(bytes.length).toBe(FILL_MEMO_PLAINTEXT_BYTES);
    expect(FILL_MEMO_PLAINTEXT_BYTES).toBe(146);
    expect(bytes[0]).toBe(1);
    expect(bytes.subarray(1, 17)).toEqual(memo.orderId);
    expect(bytesToHex(bytes.subarray(17, 25))).toBe('0807060504030201'); // match_id u64 LE
    expect(bytesToHex(bytes.subarray(25, 33))).toBe('60e3160000000000'); // 1_500_000 LE
    expect(bytesToHex(bytes.subarray(33, 41))).toBe('0000000000000000');
    expect(bytesToHex(bytes.subarray(41, 49))).toBe('ffffffffffffffff');
    expect(bytes[49]).toBe(2);
    expect(bytesToHex(bytes.subarray(50, 82))).toBe('00'.repeat(31) + '01'); // 32-byte BE
    expect(bytesToHex(bytes.subarray(82, 114))).toBe((FIELD_MODULUS - 1n).toString(16).padStart(64, '0'));
    expect(bytes.subarray(114).every((b) => b === 0)).toBe(true); // unused slot
    expect(decodeFillMemoPlaintext(bytes)).toEqual({ ...memo, outputInners: [1n, FIELD_MODULUS - 1n] });
  });

  it('refuses out-of-range fields', () => {
    const bad: Partial<FillMemo>[] = [
      { orderId: new Uint8Array(15) },
      { matchId: -1n },
      { tradeAmount: U64_MAX + 1n },
      { changeAmount: 1 as unknown as bigint },
      { outputInners: [1n, 2n, 3n, 4n] },
      { outputInners: [FIELD_MODULUS] },
    ];
    for (const change of bad) {
      expect(() => encodeFillMemoPlaintext({ ...memo, ...change })).toThrow(
        expect.objectContaining({ code: 'MEMO_INVALID' }),
      );
    }
  });

  it('decoding is strict: version, count, padding and field range', () => {
    const good = encodeFillMemoPlaintext({ ...memo, outputInners: [5n] });
    const variants: [number, number][] = [
      [0, 2], // version
      [49, 4], // count > 3
      [120, 1], // non-zero byte in an unused slot
      [50, 0xff], // first inner >= r
    ];
    for (const [offset, value] of variants) {
      const bytes = Uint8Array.from(good);
      bytes[offset] = value;
      expect(() => decodeFillMemoPlaintext(bytes)).toThrow(expect.objectContaining({ code: 'MEMO_INVALID' }));
    }
    expect(() => decodeFillMemoPlaintext(good.subarray(1))).toThrow(
      expect.objectContaining({ code: 'MEMO_INVALID' }),
    );
  });
});

describe('encryptFillMemo / decryptFillMemo', () => {
  it('round trip, for 0 to 3 output inners; always 194 bytes', () => {
    for (let count = 0; count <= 3; count++) {
      const sent = { ...memo, outputInners: memo.outputInners.slice(0, count) };
      const wire = encryptFillMemo(recipient.publicKey, sent);
      expect(wire.length).toBe(FILL_MEMO_BYTES);
      expect(FILL_MEMO_BYTES).toBe(32 + 146 + 16);
      expect(decryptFillMemo(recipient.privateKey, wire)).toEqual(sent);
    }
  });

  it('follows DESIGN.md section 7 byte for byte (independent re-derivation of the key)', () => {
    const wire = encryptFillMemo(recipient.publicKey, memo);
    const ephemeralPublic = wire.subarray(0, 32);
    const shared = x25519SharedSecret(recipient.privateKey, ephemeralPublic);
    const info = Buffer.concat([Buffer.from('venue-fill-v1'), ephemeralPublic, recipient.publicKey]);
    const key = Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), info, 32));
    const decipher = createDecipheriv('chacha20-poly1305', key, Buffer.alloc(12), { authTagLength: 16 });
    decipher.setAuthTag(wire.subarray(32 + 146));
    const plaintext = Buffer.concat([decipher.update(wire.subarray(32, 32 + 146)), decipher.final()]);
    expect(new Uint8Array(plaintext)).toEqual(encodeFillMemoPlaintext(memo));
  });

  it('uses a fresh ephemeral key per memo, unless a test vector pins one', () => {
    const a = encryptFillMemo(recipient.publicKey, memo);
    const b = encryptFillMemo(recipient.publicKey, memo);
    expect(bytesToHex(a.subarray(0, 32))).not.toBe(bytesToHex(b.subarray(0, 32)));
    expect(bytesToHex(a)).not.toBe(bytesToHex(b));

    const ephemeralPrivateKey = hexToBytes(
      '77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a',
    );
    const pinned1 = encryptFillMemo(recipient.publicKey, memo, { ephemeralPrivateKey });
    const pinned2 = encryptFillMemo(recipient.publicKey, memo, { ephemeralPrivateKey });
    expect(pinned1).toEqual(pinned2);
    expect(pinned1.subarray(0, 32)).toEqual(x25519PublicKeyFromPrivate(ephemeralPrivateKey));
  });

  it('flipping any single byte (any bit position) fails with MEMO_DECRYPT_FAILED', () => {
    const wire = encryptFillMemo(recipient.publicKey, memo);
    for (let i = 0; i < wire.length; i++) {
      const tampered = Uint8Array.from(wire);
      tampered[i] = tampered[i]! ^ (1 << (i % 8));
      expect(
        decryptError(() => decryptFillMemo(recipient.privateKey, tampered)),
        `byte ${i}`,
      ).toBe(true);
    }
  });

  it('the wrong key fails', () => {
    const wire = encryptFillMemo(recipient.publicKey, memo);
    const other = generateX25519KeyPair();
    expect(decryptError(() => decryptFillMemo(other.privateKey, wire))).toBe(true);
  });

  it('truncated or extended input fails', () => {
    const wire = encryptFillMemo(recipient.publicKey, memo);
    for (const length of [0, 31, 32, 48, FILL_MEMO_BYTES - 16, FILL_MEMO_BYTES - 1]) {
      expect(decryptError(() => decryptFillMemo(recipient.privateKey, wire.subarray(0, length)))).toBe(true);
    }
    expect(decryptError(() => decryptFillMemo(recipient.privateKey, Uint8Array.from([...wire, 0])))).toBe(
      true,
    );
  });

  it('a low-order ephemeral key in the wire bytes fails cleanly', () => {
    const wire = encryptFillMemo(recipient.publicKey, memo);
    const forged = Uint8Array.from(wire);
    forged.fill(0, 0, 32);
    expect(decryptError(() => decryptFillMemo(recipient.privateKey, forged))).toBe(true);
  });

  it('refuses a non-contributory or malformed recipient key', () => {
    expect(() => encryptFillMemo(new Uint8Array(32), memo)).toThrow(
      expect.objectContaining({ code: 'X25519_NON_CONTRIBUTORY' }),
    );
    const onePlusTopBit = new Uint8Array(32);
    onePlusTopBit[0] = 1;
    onePlusTopBit[31] = 0x80;
    expect(() => encryptFillMemo(onePlusTopBit, memo)).toThrow(
      expect.objectContaining({ code: 'X25519_NON_CONTRIBUTORY' }),
    );
    expect(() => encryptFillMemo(new Uint8Array(31).fill(7), memo)).toThrow(
      expect.objectContaining({ code: 'KEY_INVALID' }),
    );
  });

  it('refuses an invalid memo before encrypting', () => {
    expect(() => encryptFillMemo(recipient.publicKey, { ...memo, matchId: U64_MAX + 1n })).toThrow(
      expect.objectContaining({ code: 'MEMO_INVALID' }),
    );
  });
});
