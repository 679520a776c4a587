/**
 * Settlement v2 formulas of DESIGN.md section 3: the order digest that binds an input proof to one
 * order, the note's use tag, a change note's inner (carrying its remainder's digest) and a
 * withdrawal's change inner.
 *
 *   order digest        = Poseidon(10, market_lo, market_hi, side, amount, price_limit,
 *                                  min_fill_size, expiry_slot, order_id)
 *   note use tag        = Poseidon(8, note_commitment, note_inner_hash, order digest)
 *   change output inner = Poseidon(4, parent_inner, 2, remainder digest)
 *   withdrawal change   = Poseidon(9, note_inner_hash)
 *
 * The market id's 32 bytes split like a mint (hi = bytes 0..16, lo = bytes 16..32); order_id is
 * its 16 bytes read as a big-endian 128-bit integer. The circuits range-check every term (u64,
 * order_id and the market halves 128-bit, side boolean), so these helpers refuse anything else:
 * an out-of-range term would hash fine here and then fail in the prover.
 */
import { bytesToBigInt, mintToFields } from '@nightjar/protocol';
// The digest takes nine inputs; `poseidon` of poseidon.ts serves 1..6, so this one width comes
// from poseidon-lite (the same circomlib constants, cross-checked against circomlibjs in tests).
import { ValueRangeError } from './errors.js';
import { assertFieldElement, assertU128, assertU64 } from './field.js';
import { NoteDomain, OutputRole } from './notes.js';
import { poseidon } from './poseidon.js';
import { poseidon9Unchecked } from './poseidon-fast.js';

/** Domain tags of the settlement v2 formulas (DESIGN 3; 1 to 7 are the note formulas'). */
export const SettlementDomain = {
  useTag: 8n,
  withdrawalChange: 9n,
  orderDigest: 10n,
} as const;

/** DESIGN 2's side byte: 0 bid, 1 ask. */
export type OrderSide = 0 | 1;

/** The order fields the digest binds, as circuit values. */
export interface OrderTerms {
  /** Bytes 16..32 and 0..16 of the market id, big-endian. */
  marketLo: bigint;
  marketHi: bigint;
  side: OrderSide;
  /** u64: for a resting order's remainder, the amount left. */
  amount: bigint;
  priceLimit: bigint;
  minFillSize: bigint;
  expirySlot: bigint;
  /** The 16-byte order id as a big-endian integer. */
  orderId: bigint;
}

/** The 16-byte order id as the 128-bit integer the digest takes (big-endian, as its hex reads). */
export function orderIdToField(orderId: Uint8Array): bigint {
  if (!(orderId instanceof Uint8Array) || orderId.length !== 16)
    throw new ValueRangeError('order_id must be 16 bytes');
  return bytesToBigInt(orderId);
}

/** Splits a 32-byte market id like a mint. */
export function marketToFields(marketId: Uint8Array): { marketLo: bigint; marketHi: bigint } {
  if (!(marketId instanceof Uint8Array) || marketId.length !== 32)
    throw new ValueRangeError('market id must be 32 bytes');
  const { mintLo, mintHi } = mintToFields(marketId);
  return { marketLo: mintLo, marketHi: mintHi };
}

/** Throws ValueRangeError unless every term is in the range the circuits check. */
export function assertOrderTerms(t: OrderTerms): void {
  assertU128(t.marketLo, 'market_lo');
  assertU128(t.marketHi, 'market_hi');
  if (t.side !== 0 && t.side !== 1) throw new ValueRangeError('side must be 0 (bid) or 1 (ask)');
  assertU64(t.amount, 'amount');
  assertU64(t.priceLimit, 'price_limit');
  assertU64(t.minFillSize, 'min_fill_size');
  assertU64(t.expirySlot, 'expiry_slot');
  assertU128(t.orderId, 'order_id');
}

export function orderDigest(t: OrderTerms): bigint {
  assertOrderTerms(t);
  // Every term is range-checked above, so the fast unchecked hash (poseidon-lite's at worst) serves.
  return poseidon9Unchecked([
    SettlementDomain.orderDigest,
    t.marketLo,
    t.marketHi,
    BigInt(t.side),
    t.amount,
    t.priceLimit,
    t.minFillSize,
    t.expirySlot,
    t.orderId,
  ]);
}

/** The digest of what is left of an order after a fill of `quantity`: its terms, amount − quantity. */
export function remainderDigest(t: OrderTerms, quantity: bigint): bigint {
  assertU64(quantity, 'quantity');
  if (quantity > t.amount) throw new ValueRangeError('a fill cannot exceed the amount left');
  return orderDigest({ ...t, amount: t.amount - quantity });
}

export function noteUseTag(noteCommitment: bigint, noteInnerHash: bigint, digest: bigint): bigint {
  assertFieldElement(noteCommitment, 'note_commitment');
  assertFieldElement(noteInnerHash, 'note_inner_hash');
  assertFieldElement(digest, 'order_digest');
  return poseidon([SettlementDomain.useTag, noteCommitment, noteInnerHash, digest]);
}

/** A match's change note inner: Poseidon(4, parent_inner, 2, remainder digest). */
export function changeOutputInner(parentInner: bigint, remainder: bigint): bigint {
  assertFieldElement(parentInner, 'parent_inner');
  assertFieldElement(remainder, 'remainder_digest');
  return poseidon([NoteDomain.outputInner, parentInner, BigInt(OutputRole.change), remainder]);
}

/** A withdrawal's change note inner: Poseidon(9, note_inner_hash) of the spent note. */
export function withdrawalChangeInner(noteInnerHash: bigint): bigint {
  assertFieldElement(noteInnerHash, 'note_inner_hash');
  return poseidon([SettlementDomain.withdrawalChange, noteInnerHash]);
}
