/** Canonical fixed-length signing bodies (DESIGN.md section 2). All integers little-endian. */
import { createHash } from 'node:crypto';
import type { CancelBody, PlaceOrderBody } from './bodies.js';
import { ORDER_TYPES, SIDES, type OrderType, type Side } from './bodies.js';
import { ed25519Sign, ed25519VerifyStrict } from './ed25519.js';
import { bytesToHex, hexToBytes } from './encoding.js';
import { CANCEL_DOMAIN, MAX_SYMBOL_LENGTH, ORDER_DOMAIN } from './limits.js';

export const ORDER_BODY_LENGTH = 201;
const ORDER_DOMAIN_BYTES = Buffer.from(ORDER_DOMAIN, 'ascii');
const CANCEL_DOMAIN_BYTES = Buffer.from(CANCEL_DOMAIN, 'ascii');
export const CANCEL_BODY_LENGTH = 103;

/** The signed fields of an order, normalised (defaults applied). */
export interface OrderSigningFields {
  symbol: string;
  side: Side;
  order_type: OrderType;
  amount: bigint;
  price_limit: bigint;
  min_fill_size: bigint;
  expiry_slot: bigint;
  order_id: string;
  note_commitment: string;
  arrival_nonce: bigint;
  viewing_pubkey: string;
  session_id: string;
}

export interface CancelSigningFields {
  order_id: string;
  trading_key: string;
  cancel_nonce: bigint;
  session_id: string;
}

const ORDER_OFFSETS = {
  symbolLength: 14,
  symbol: 15,
  side: 47,
  orderType: 48,
  amount: 49,
  priceLimit: 57,
  minFillSize: 65,
  expirySlot: 73,
  orderId: 81,
  noteCommitment: 97,
  arrivalNonce: 129,
  viewingPubkey: 137,
  sessionId: 169,
} as const;

function putHex(out: Buffer, offset: number, hex: string, width: number): void {
  if (hex.length !== width * 2) throw new RangeError(`expected ${width} bytes of hex`);
  if (out.write(hex, offset, width, 'hex') !== width) throw new RangeError('invalid hex');
}

/** Encodes the 201-byte `venue-order-v5` body. Throws on values that cannot be encoded. */
export function encodeOrderBody(o: OrderSigningFields): Uint8Array {
  const out = Buffer.alloc(ORDER_BODY_LENGTH);
  out.write(ORDER_DOMAIN, 0, 'ascii');
  const symbolLength = Buffer.byteLength(o.symbol, 'ascii');
  if (symbolLength < 1 || symbolLength > MAX_SYMBOL_LENGTH || !/^[\x20-\x7e]+$/.test(o.symbol)) {
    throw new RangeError('symbol must be 1..32 printable ASCII characters');
  }
  out[ORDER_OFFSETS.symbolLength] = symbolLength;
  out.write(o.symbol, ORDER_OFFSETS.symbol, 'ascii');
  out[ORDER_OFFSETS.side] = SIDES.indexOf(o.side);
  out[ORDER_OFFSETS.orderType] = ORDER_TYPES.indexOf(o.order_type);
  if (out[ORDER_OFFSETS.side] === 255 || out[ORDER_OFFSETS.orderType] === 255)
    throw new RangeError('bad side or order_type');
  out.writeBigUInt64LE(o.amount, ORDER_OFFSETS.amount);
  out.writeBigUInt64LE(o.price_limit, ORDER_OFFSETS.priceLimit);
  out.writeBigUInt64LE(o.min_fill_size, ORDER_OFFSETS.minFillSize);
  out.writeBigUInt64LE(o.expiry_slot, ORDER_OFFSETS.expirySlot);
  putHex(out, ORDER_OFFSETS.orderId, o.order_id, 16);
  putHex(out, ORDER_OFFSETS.noteCommitment, o.note_commitment, 32);
  out.writeBigUInt64LE(o.arrival_nonce, ORDER_OFFSETS.arrivalNonce);
  putHex(out, ORDER_OFFSETS.viewingPubkey, o.viewing_pubkey, 32);
  putHex(out, ORDER_OFFSETS.sessionId, o.session_id, 32);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

export class CanonicalDecodeError extends Error {
  override readonly name = 'CanonicalDecodeError';
}

/** Inverse of {@link encodeOrderBody}; refuses any byte string that is not a canonical encoding. */
export function decodeOrderBody(bytes: Uint8Array): OrderSigningFields {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length !== ORDER_BODY_LENGTH) throw new CanonicalDecodeError('order body must be 201 bytes');
  if (!b.subarray(0, 14).equals(ORDER_DOMAIN_BYTES)) throw new CanonicalDecodeError('wrong domain');
  const len = b[ORDER_OFFSETS.symbolLength]!;
  if (len < 1 || len > MAX_SYMBOL_LENGTH) throw new CanonicalDecodeError('bad symbol length');
  const symbolField = b.subarray(ORDER_OFFSETS.symbol, ORDER_OFFSETS.symbol + MAX_SYMBOL_LENGTH);
  if (symbolField.subarray(len).some((x) => x !== 0))
    throw new CanonicalDecodeError('symbol padding not zero');
  if (symbolField.subarray(0, len).some((x) => x < 0x20 || x > 0x7e))
    throw new CanonicalDecodeError('bad symbol');
  const symbol = symbolField.toString('ascii', 0, len);
  const side = SIDES[b[ORDER_OFFSETS.side]!];
  const orderType = ORDER_TYPES[b[ORDER_OFFSETS.orderType]!];
  if (side === undefined || orderType === undefined) throw new CanonicalDecodeError('bad side or order_type');
  const hex = (offset: number, width: number) => b.toString('hex', offset, offset + width);
  return {
    symbol,
    side,
    order_type: orderType,
    amount: b.readBigUInt64LE(ORDER_OFFSETS.amount),
    price_limit: b.readBigUInt64LE(ORDER_OFFSETS.priceLimit),
    min_fill_size: b.readBigUInt64LE(ORDER_OFFSETS.minFillSize),
    expiry_slot: b.readBigUInt64LE(ORDER_OFFSETS.expirySlot),
    order_id: hex(ORDER_OFFSETS.orderId, 16),
    note_commitment: hex(ORDER_OFFSETS.noteCommitment, 32),
    arrival_nonce: b.readBigUInt64LE(ORDER_OFFSETS.arrivalNonce),
    viewing_pubkey: hex(ORDER_OFFSETS.viewingPubkey, 32),
    session_id: hex(ORDER_OFFSETS.sessionId, 32),
  };
}

/** Encodes the 103-byte `venue-cancel-v1` body. */
export function encodeCancelBody(c: CancelSigningFields): Uint8Array {
  const out = Buffer.alloc(CANCEL_BODY_LENGTH);
  out.write(CANCEL_DOMAIN, 0, 'ascii');
  putHex(out, 15, c.order_id, 16);
  putHex(out, 31, c.trading_key, 32);
  out.writeBigUInt64LE(c.cancel_nonce, 63);
  putHex(out, 71, c.session_id, 32);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

export function decodeCancelBody(bytes: Uint8Array): CancelSigningFields {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length !== CANCEL_BODY_LENGTH) throw new CanonicalDecodeError('cancel body must be 103 bytes');
  if (!b.subarray(0, 15).equals(CANCEL_DOMAIN_BYTES)) throw new CanonicalDecodeError('wrong domain');
  return {
    order_id: b.toString('hex', 15, 31),
    trading_key: b.toString('hex', 31, 63),
    cancel_nonce: b.readBigUInt64LE(63),
    session_id: b.toString('hex', 71, 103),
  };
}

/** The signed fields of a parsed place-order body, with the spec's defaults applied. */
export function orderSigningFields(body: PlaceOrderBody): OrderSigningFields {
  return {
    symbol: body.symbol,
    side: body.side,
    order_type: body.order_type,
    amount: body.amount,
    price_limit: body.price_limit ?? 0n,
    min_fill_size: body.min_fill_size ?? 0n,
    expiry_slot: body.expiry_slot,
    order_id: body.order_id,
    note_commitment: body.note_commitment,
    arrival_nonce: body.arrival_nonce,
    viewing_pubkey: body.viewing_pubkey,
    session_id: body.session_id,
  };
}

export function cancelSigningFields(orderId: string, body: CancelBody): CancelSigningFields {
  return {
    order_id: orderId,
    trading_key: body.trading_key,
    cancel_nonce: body.cancel_nonce,
    session_id: body.session_id,
  };
}

/**
 * Modify binding: the cancel signature covers the cancel body built from the path (old) order id,
 * the replacement's trading key and session, and the modify body's cancel nonce.
 */
export function modifyCancelFields(
  oldOrderId: string,
  cancelNonce: bigint,
  replacement: { trading_key: string; session_id: string },
): CancelSigningFields {
  return {
    order_id: oldOrderId,
    trading_key: replacement.trading_key,
    cancel_nonce: cancelNonce,
    session_id: replacement.session_id,
  };
}

/** The signed message: SHA-256 of the canonical body. */
export function signingDigest(body: Uint8Array): Uint8Array {
  return Uint8Array.from(createHash('sha256').update(body).digest());
}

export function signCanonical(seed: Uint8Array, body: Uint8Array): string {
  return bytesToHex(ed25519Sign(seed, signingDigest(body)));
}

/** Strictly verifies a hex signature by a hex Ed25519 key over SHA-256(body). Never throws. */
export function verifyCanonical(tradingKeyHex: string, body: Uint8Array, signatureHex: string): boolean {
  if (tradingKeyHex.length !== 64 || signatureHex.length !== 128) return false;
  let key: Uint8Array;
  let sig: Uint8Array;
  try {
    key = hexToBytes(tradingKeyHex);
    sig = hexToBytes(signatureHex);
  } catch {
    return false;
  }
  return ed25519VerifyStrict(key, signingDigest(body), sig);
}
