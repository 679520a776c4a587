import { createDecipheriv, hkdfSync } from 'node:crypto';
import { FIELD_MODULUS, U64_MAX, bytesToHex, hexToBytes } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import { seededBytes, seededFieldElements } from '../test/helpers/seeded.js';
import { isCryptoError } from './errors.js';
import {
  FILL_MEMO_INFO,
  FILL_MEMO_BYTES,
  decryptFillMemo,
  encryptFillMemo,
  openMemo,
  sealMemo,
} from './memo.js';
import { FILL_MEMO_PLAINTEXT_BYTES, encodeFillMemoPlaintext, type FillMemo } from './memo-layout.js';
import {
  NOTE_MEMO_BYTES,
  NOTE_MEMO_INFO,
  NOTE_MEMO_PLAINTEXT_BYTES,
  decodeNoteMemoPlaintext,
  decryptNoteMemo,
  encodeNoteMemoPlaintext,
  encryptNoteMemo,
  type NoteMemo,
} from './note-memo.js';
import { generateX25519KeyPair, x25519PublicKeyFromPrivate, x25519SharedSecret } from './x25519.js';

const owner = generateX25519KeyPair();
const memo: NoteMemo = {
  mint: seededBytes('note-memo-mint', 0),
  parentInner: seededFieldElements('note-memo-parent', 1)[0]!,
  amounts: [1n, 0n, 0x0102030405060708n, U64_MAX, 0n, 0n, 0n, 42n],
};
const fill: FillMemo = {
  orderId: seededBytes('note-memo-order', 0, 16),
  matchId: 7n,
  tradeAmount: 1n,
  changeAmount: 2n,
  feeAmount: 3n,
  outputInners: [1n, 2n],
};
const memoInvalid = expect.objectContaining({ code: 'MEMO_INVALID' });

function decryptError(run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch (err) {
    return isCryptoError(err, 'MEMO_DECRYPT_FAILED');
  }
}

describe('note memo plaintext', () => {
  it('is the documented 129 bytes: version, mint, parent inner (BE), 8 amounts (u64 LE)', () => {
    const bytes = encodeNoteMemoPlaintext(memo);
    expect(NOTE_MEMO_PLAINTEXT_BYTES).toBe(129);
    expect(bytes.length).toBe(129);
    expect(bytes[0]).toBe(1);
    expect(bytes.subarray(1, 33)).toEqual(memo.mint);
    expect(bytesToHex(bytes.subarray(33, 65))).toBe(memo.parentInner.toString(16).padStart(64, '0'));
    expect(bytesToHex(bytes.subarray(65, 73))).toBe('0100000000000000');
    expect(bytesToHex(bytes.subarray(73, 81))).toBe('0000000000000000');
    expect(bytesToHex(bytes.subarray(81, 89))).toBe('0807060504030201');
    expect(bytesToHex(bytes.subarray(89, 97))).toBe('ffffffffffffffff');
    expect(bytesToHex(bytes.subarray(121, 129))).toBe('2a00000000000000');
    expect(decodeNoteMemoPlaintext(bytes)).toEqual(memo);
  });

  it('round trips edge values: parent 0 and r - 1, all-zero and all-max amounts', () => {
    for (const change of [
      { parentInner: 0n },
      { parentInner: FIELD_MODULUS - 1n },
      { amounts: Array<bigint>(8).fill(0n) },
      { amounts: Array<bigint>(8).fill(U64_MAX) },
      { mint: new Uint8Array(32) },
    ]) {
      const m = { ...memo, ...change };
      expect(decodeNoteMemoPlaintext(encodeNoteMemoPlaintext(m))).toEqual(m);
    }
  });

  it('encode refuses a bad mint, parent inner, amount count or out-of-range amount', () => {
    const bad: Partial<NoteMemo>[] = [
      { mint: new Uint8Array(31) },
      { mint: new Uint8Array(33) },
      { mint: Array(32).fill(0) as unknown as Uint8Array },
      { parentInner: FIELD_MODULUS },
      { parentInner: -1n },
      { parentInner: 1 as unknown as bigint },
      { amounts: [] },
      { amounts: Array<bigint>(7).fill(1n) },
      { amounts: Array<bigint>(9).fill(1n) },
      { amounts: [U64_MAX + 1n, 0n, 0n, 0n, 0n, 0n, 0n, 0n] },
      { amounts: [0n, 0n, 0n, 0n, 0n, 0n, 0n, 1n << 64n] },
      { amounts: [1n, -1n, 0n, 0n, 0n, 0n, 0n, 0n] },
      { amounts: [1, 0, 0, 0, 0, 0, 0, 0] as unknown as bigint[] },
    ];
    for (const change of bad)
      expect(
        () => encodeNoteMemoPlaintext({ ...memo, ...change }),
        JSON.stringify(Object.keys(change)),
      ).toThrow(memoInvalid);
    expect(() => encryptNoteMemo(owner.publicKey, { ...memo, amounts: [U64_MAX + 1n] })).toThrow(memoInvalid);
  });

  it('decode is strict: length, version and the parent inner’s range', () => {
    const good = encodeNoteMemoPlaintext(memo);
    expect(() => decodeNoteMemoPlaintext(good.subarray(1))).toThrow(memoInvalid);
    expect(() => decodeNoteMemoPlaintext(Uint8Array.from([...good, 0]))).toThrow(memoInvalid);
    const v2 = Uint8Array.from(good);
    v2[0] = 2;
    expect(() => decodeNoteMemoPlaintext(v2)).toThrow(memoInvalid);
    const big = Uint8Array.from(good);
    big.fill(0xff, 33, 65); // parent inner 2^256 - 1 >= r
    expect(() => decodeNoteMemoPlaintext(big)).toThrow(memoInvalid);
  });
});

describe('encryptNoteMemo / decryptNoteMemo', () => {
  it('round trip, always 177 bytes', () => {
    expect(NOTE_MEMO_BYTES).toBe(32 + 129 + 16);
    for (const amounts of [memo.amounts, [5n, 0n, 0n, 0n, 0n, 0n, 0n, 0n], Array<bigint>(8).fill(U64_MAX)]) {
      const sent = { ...memo, amounts };
      const wire = encryptNoteMemo(owner.publicKey, sent);
      expect(wire.length).toBe(NOTE_MEMO_BYTES);
      expect(decryptNoteMemo(owner.privateKey, wire)).toEqual(sent);
    }
  });

  it('uses HKDF info venue-note-v1 (independent re-derivation of the key)', () => {
    const wire = encryptNoteMemo(owner.publicKey, memo);
    const eph = wire.subarray(0, 32);
    const shared = x25519SharedSecret(owner.privateKey, eph);
    const info = Buffer.concat([Buffer.from('venue-note-v1'), eph, owner.publicKey]);
    const key = Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), info, 32));
    const decipher = createDecipheriv('chacha20-poly1305', key, Buffer.alloc(12), { authTagLength: 16 });
    decipher.setAuthTag(wire.subarray(32 + 129));
    const plaintext = Buffer.concat([decipher.update(wire.subarray(32, 32 + 129)), decipher.final()]);
    expect(new Uint8Array(plaintext)).toEqual(encodeNoteMemoPlaintext(memo));
    expect(NOTE_MEMO_INFO).toBe('venue-note-v1');
  });

  it('a fresh ephemeral key per memo, unless a test vector pins one', () => {
    const a = encryptNoteMemo(owner.publicKey, memo);
    const b = encryptNoteMemo(owner.publicKey, memo);
    expect(bytesToHex(a.subarray(0, 32))).not.toBe(bytesToHex(b.subarray(0, 32)));
    const ephemeralPrivateKey = hexToBytes(
      '77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a',
    );
    const pinned = encryptNoteMemo(owner.publicKey, memo, { ephemeralPrivateKey });
    expect(encryptNoteMemo(owner.publicKey, memo, { ephemeralPrivateKey })).toEqual(pinned);
    expect(pinned.subarray(0, 32)).toEqual(x25519PublicKeyFromPrivate(ephemeralPrivateKey));
  });

  it('a note memo never opens as a fill memo, nor a fill memo as a note memo (different HKDF info)', () => {
    // Same key, same plaintext length: only the info string differs, and the tag check fails.
    const noteWire = encryptNoteMemo(owner.publicKey, memo);
    expect(
      decryptError(() => openMemo(FILL_MEMO_INFO, owner.privateKey, noteWire, NOTE_MEMO_PLAINTEXT_BYTES)),
    ).toBe(true);
    expect(openMemo(NOTE_MEMO_INFO, owner.privateKey, noteWire, NOTE_MEMO_PLAINTEXT_BYTES)).toEqual(
      Buffer.from(encodeNoteMemoPlaintext(memo)),
    );
    // A note plaintext sealed under the fill info does not open as a note memo.
    const asFill = sealMemo(FILL_MEMO_INFO, owner.publicKey, encodeNoteMemoPlaintext(memo));
    expect(asFill.length).toBe(NOTE_MEMO_BYTES);
    expect(decryptError(() => decryptNoteMemo(owner.privateKey, asFill))).toBe(true);
    // A fill plaintext sealed under the note info does not open as a fill memo.
    const asNote = sealMemo(NOTE_MEMO_INFO, owner.publicKey, encodeFillMemoPlaintext(fill));
    expect(asNote.length).toBe(FILL_MEMO_BYTES);
    expect(decryptError(() => decryptFillMemo(owner.privateKey, asNote))).toBe(true);
    expect(
      decryptError(() => openMemo(FILL_MEMO_INFO, owner.privateKey, asNote, FILL_MEMO_PLAINTEXT_BYTES)),
    ).toBe(true);
    // The two real kinds never open as each other (different lengths as well).
    const fillWire = encryptFillMemo(owner.publicKey, fill);
    expect(decryptError(() => decryptNoteMemo(owner.privateKey, fillWire))).toBe(true);
    expect(decryptError(() => decryptFillMemo(owner.privateKey, noteWire))).toBe(true);
    expect(decryptFillMemo(owner.privateKey, fillWire)).toEqual(fill);
  });

  it('flipping any single byte fails with MEMO_DECRYPT_FAILED', () => {
    const wire = encryptNoteMemo(owner.publicKey, memo);
    for (let i = 0; i < wire.length; i++) {
      const tampered = Uint8Array.from(wire);
      tampered[i] = tampered[i]! ^ (1 << (i % 8));
      expect(
        decryptError(() => decryptNoteMemo(owner.privateKey, tampered)),
        `byte ${i}`,
      ).toBe(true);
    }
  });

  it('truncated, extended, all-zero ephemeral key, or the wrong key fails with MEMO_DECRYPT_FAILED', () => {
    const wire = encryptNoteMemo(owner.publicKey, memo);
    for (const length of [0, 31, 32, 48, NOTE_MEMO_BYTES - 16, NOTE_MEMO_BYTES - 1])
      expect(
        decryptError(() => decryptNoteMemo(owner.privateKey, wire.subarray(0, length))),
        `length ${length}`,
      ).toBe(true);
    expect(decryptError(() => decryptNoteMemo(owner.privateKey, Uint8Array.from([...wire, 0])))).toBe(true);
    const lowOrder = Uint8Array.from(wire);
    lowOrder.fill(0, 0, 32);
    expect(decryptError(() => decryptNoteMemo(owner.privateKey, lowOrder))).toBe(true);
    expect(decryptError(() => decryptNoteMemo(generateX25519KeyPair().privateKey, wire))).toBe(true);
  });

  it('refuses a non-contributory or malformed owner key', () => {
    expect(() => encryptNoteMemo(new Uint8Array(32), memo)).toThrow(
      expect.objectContaining({ code: 'X25519_NON_CONTRIBUTORY' }),
    );
    expect(() => encryptNoteMemo(new Uint8Array(31).fill(7), memo)).toThrow(
      expect.objectContaining({ code: 'KEY_INVALID' }),
    );
  });
});
