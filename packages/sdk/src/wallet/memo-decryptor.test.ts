import { describe, expect, it } from 'vitest';
import { decryptFillMemo, encryptFillMemo, generateX25519KeyPair } from '@nightjar/crypto';
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
});
