import { describe, expect, it } from 'vitest';
import {
  decryptFillMemo,
  decryptNoteMemo,
  encryptFillMemo,
  encryptNoteMemo,
  generateX25519KeyPair,
} from '@nightjar/crypto';
import { MemoDecryptor } from './memo-decryptor.js';

describe('MemoDecryptor', () => {
  it('opens what crypto seals, exactly as decryptFillMemo does, and nothing addressed elsewhere', () => {
    const me = generateX25519KeyPair();
    const other = generateX25519KeyPair();
    const memo = {
      orderId: new Uint8Array(16).fill(5),
      matchId: 7n,
      tradeAmount: 100n,
      changeAmount: 3n,
      feeAmount: 1n,
      outputInners: [11n, 12n, 13n],
    };
    const sealed = encryptFillMemo(me.publicKey, memo);
    const d = new MemoDecryptor(me.privateKey, me.publicKey);
    expect(d.open(sealed)).toEqual(decryptFillMemo(me.privateKey, sealed));
    expect(d.open(encryptFillMemo(other.publicKey, memo))).toBeUndefined();
    const tampered = Uint8Array.from(sealed);
    tampered[100]! ^= 1;
    expect(d.open(tampered)).toBeUndefined();
    expect(d.open(sealed.subarray(1))).toBeUndefined();
  });

  it('opens note memos as decryptNoteMemo does; a fill memo key never opens a note memo, nor the reverse', () => {
    const me = generateX25519KeyPair();
    const other = generateX25519KeyPair();
    const memo = {
      mint: new Uint8Array(32).fill(9),
      parentInner: 42n,
      amounts: [5n, 6n, 0n, 0n, 0n, 0n, 0n, 0n],
    };
    const sealed = encryptNoteMemo(me.publicKey, memo);
    const d = new MemoDecryptor(me.privateKey, me.publicKey);
    expect(d.openNote(sealed)).toEqual(decryptNoteMemo(me.privateKey, sealed));
    expect(d.openNote(encryptNoteMemo(other.publicKey, memo))).toBeUndefined();
    expect(d.open(sealed)).toBeUndefined();
    const tampered = Uint8Array.from(sealed);
    tampered[90]! ^= 1;
    expect(d.openNote(tampered)).toBeUndefined();
  });
});
