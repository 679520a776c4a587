/**
 * Fill-memo plaintext, version 1: fixed 146 bytes, integers little-endian, field elements 32-byte
 * big-endian.
 *
 *   offset  bytes  field
 *   0       1      version (1)
 *   1       16     order_id
 *   17      8      match_id (u64)
 *   25      8      trade_amount (u64)
 *   33      8      change_amount (u64)
 *   41      8      fee_amount (u64)
 *   49      1      count n of output inners (0..3)
 *   50      96     3 slots of 32 bytes: the n output inners (< r) first, unused slots all zero
 *
 * The slots are always present so every memo has the same length: the ledger stores memos in the
 * clear-text settlement record, and a shorter memo would tell everyone that a fill had no change.
 */
import { FIELD_MODULUS, U64_MAX, bigIntToBytes, bytesToBigInt } from '@nightjar/protocol';
import { MemoFormatError } from './errors.js';

export const FILL_MEMO_VERSION = 1;
export const FILL_MEMO_MAX_OUTPUTS = 3;
export const FILL_MEMO_PLAINTEXT_BYTES = 50 + 32 * FILL_MEMO_MAX_OUTPUTS;
export const ORDER_ID_BYTES = 16;

export interface FillMemo {
  /** 16-byte order id of the recipient's order. */
  orderId: Uint8Array;
  matchId: bigint;
  tradeAmount: bigint;
  changeAmount: bigint;
  feeAmount: bigint;
  /** Inner hashes of the outputs (Poseidon(4, parent_inner, role)), at most 3, in the sender's order. */
  outputInners: bigint[];
}

const U64_FIELDS = ['matchId', 'tradeAmount', 'changeAmount', 'feeAmount'] as const;

export function encodeFillMemoPlaintext(memo: FillMemo): Uint8Array {
  if (!(memo.orderId instanceof Uint8Array) || memo.orderId.length !== ORDER_ID_BYTES) {
    throw new MemoFormatError(`order_id must be ${ORDER_ID_BYTES} bytes`);
  }
  for (const name of U64_FIELDS) {
    const value = memo[name];
    if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) {
      throw new MemoFormatError(`${name} must be an unsigned 64-bit integer`);
    }
  }
  const inners = memo.outputInners;
  if (!Array.isArray(inners) || inners.length > FILL_MEMO_MAX_OUTPUTS) {
    throw new MemoFormatError(`at most ${FILL_MEMO_MAX_OUTPUTS} output inners`);
  }
  for (const inner of inners) {
    if (typeof inner !== 'bigint' || inner < 0n || inner >= FIELD_MODULUS) {
      throw new MemoFormatError('output inner must be a field element');
    }
  }

  const out = new Uint8Array(FILL_MEMO_PLAINTEXT_BYTES);
  const view = new DataView(out.buffer);
  out[0] = FILL_MEMO_VERSION;
  out.set(memo.orderId, 1);
  U64_FIELDS.forEach((name, i) => view.setBigUint64(17 + 8 * i, memo[name], true));
  out[49] = inners.length;
  inners.forEach((inner, i) => out.set(bigIntToBytes(inner, 32), 50 + 32 * i));
  return out;
}

export function decodeFillMemoPlaintext(bytes: Uint8Array): FillMemo {
  if (bytes.length !== FILL_MEMO_PLAINTEXT_BYTES)
    throw new MemoFormatError('memo plaintext has the wrong length');
  if (bytes[0] !== FILL_MEMO_VERSION) throw new MemoFormatError(`unsupported memo version ${bytes[0]}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes[49]!;
  if (count > FILL_MEMO_MAX_OUTPUTS) throw new MemoFormatError('too many output inners');
  const outputInners: bigint[] = [];
  for (let i = 0; i < FILL_MEMO_MAX_OUTPUTS; i++) {
    const slot = bytes.subarray(50 + 32 * i, 82 + 32 * i);
    if (i < count) {
      const inner = bytesToBigInt(slot);
      if (inner >= FIELD_MODULUS) throw new MemoFormatError('output inner is not a field element');
      outputInners.push(inner);
    } else if (slot.some((byte) => byte !== 0)) {
      throw new MemoFormatError('unused output slot is not zero');
    }
  }
  return {
    orderId: new Uint8Array(bytes.subarray(1, 17)), // a plain copy, even when given a Buffer
    matchId: view.getBigUint64(17, true),
    tradeAmount: view.getBigUint64(25, true),
    changeAmount: view.getBigUint64(33, true),
    feeAmount: view.getBigUint64(41, true),
    outputInners,
  };
}
