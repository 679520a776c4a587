/**
 * Note memo of a join-split (split or merge), sealed to the owner's own viewing key so that a
 * wallet rebuilt from its seed finds every output on the ledger (`getMemos`, kind "note").
 * Same ECIES as fill memos (memo.ts) with HKDF info `venue-note-v1`. Plaintext, version 1, fixed
 * 129 bytes, integers little-endian, field elements 32-byte big-endian:
 *
 *   offset  bytes  field
 *   0       1      version (1)
 *   1       32     mint
 *   33      32     parent inner (input 0's inner hash; output j's inner is Poseidon(7, it, j))
 *   65      64     8 output amounts (u64), by output slot; 0 = no output in that slot
 *
 * Wire: eph_pub (32) ‖ ciphertext (129) ‖ tag (16) = 177 bytes, the same for every join-split.
 */
import { FIELD_MODULUS, U64_MAX, bigIntToBytes, bytesToBigInt } from '@nightjar/protocol';
import { MemoFormatError } from './errors.js';
import { JOIN_SPLIT_MAX_OUTPUTS } from './join-split.js';
import { openMemo, sealMemo, sealedMemoBytes, type EncryptFillMemoOptions } from './memo.js';

export const NOTE_MEMO_INFO = 'venue-note-v1';
export const NOTE_MEMO_VERSION = 1;
export const NOTE_MEMO_PLAINTEXT_BYTES = 1 + 32 + 32 + 8 * JOIN_SPLIT_MAX_OUTPUTS;
export const NOTE_MEMO_BYTES = sealedMemoBytes(NOTE_MEMO_PLAINTEXT_BYTES);

export interface NoteMemo {
  /** 32-byte mint of every input and output. */
  mint: Uint8Array;
  /** Inner hash of input 0. */
  parentInner: bigint;
  /** The 8 output slots' amounts, 0n where a slot has no output. */
  amounts: bigint[];
}

export function encodeNoteMemoPlaintext(memo: NoteMemo): Uint8Array {
  if (!(memo.mint instanceof Uint8Array) || memo.mint.length !== 32)
    throw new MemoFormatError('mint must be 32 bytes');
  if (typeof memo.parentInner !== 'bigint' || memo.parentInner < 0n || memo.parentInner >= FIELD_MODULUS)
    throw new MemoFormatError('parent inner must be a field element');
  if (!Array.isArray(memo.amounts) || memo.amounts.length !== JOIN_SPLIT_MAX_OUTPUTS)
    throw new MemoFormatError(`a note memo has ${JOIN_SPLIT_MAX_OUTPUTS} amounts`);
  const out = new Uint8Array(NOTE_MEMO_PLAINTEXT_BYTES);
  const view = new DataView(out.buffer);
  out[0] = NOTE_MEMO_VERSION;
  out.set(memo.mint, 1);
  out.set(bigIntToBytes(memo.parentInner, 32), 33);
  memo.amounts.forEach((amount, j) => {
    if (typeof amount !== 'bigint' || amount < 0n || amount > U64_MAX)
      throw new MemoFormatError('amount must be an unsigned 64-bit integer');
    view.setBigUint64(65 + 8 * j, amount, true);
  });
  return out;
}

export function decodeNoteMemoPlaintext(bytes: Uint8Array): NoteMemo {
  if (bytes.length !== NOTE_MEMO_PLAINTEXT_BYTES)
    throw new MemoFormatError('note memo plaintext has the wrong length');
  if (bytes[0] !== NOTE_MEMO_VERSION) throw new MemoFormatError(`unsupported note memo version ${bytes[0]}`);
  const parentInner = bytesToBigInt(bytes.subarray(33, 65));
  if (parentInner >= FIELD_MODULUS) throw new MemoFormatError('parent inner is not a field element');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    mint: new Uint8Array(bytes.subarray(1, 33)),
    parentInner,
    amounts: Array.from({ length: JOIN_SPLIT_MAX_OUTPUTS }, (_, j) => view.getBigUint64(65 + 8 * j, true)),
  };
}

/** Seals a note memo to the owner's viewing public key. */
export function encryptNoteMemo(
  recipientPublicKey: Uint8Array,
  memo: NoteMemo,
  options: EncryptFillMemoOptions = {},
): Uint8Array {
  return sealMemo(NOTE_MEMO_INFO, recipientPublicKey, encodeNoteMemoPlaintext(memo), options);
}

/** Opens a note memo with the viewing private key; MemoDecryptError when it is not ours. */
export function decryptNoteMemo(recipientPrivateKey: Uint8Array, bytes: Uint8Array): NoteMemo {
  return decodeNoteMemoPlaintext(
    openMemo(NOTE_MEMO_INFO, recipientPrivateKey, bytes, NOTE_MEMO_PLAINTEXT_BYTES),
  );
}
