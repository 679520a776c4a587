/**
 * What the settlement v2 witness builders share: one error class with a stable `code` per way a
 * witness would be rejected by its circuit, the value checks that raise it, and a note's opening
 * folded up its inclusion path. Pure and synchronous, like witness.ts.
 */
import {
  TREE_DEPTH,
  assertOrderTerms,
  computeMerkleRoot,
  noteCommitment,
  noteNullifier,
  openingHash,
  type OrderTerms,
} from '@nightjar/crypto';
import { FIELD_MODULUS, U64_MAX, mintToFields } from '@nightjar/protocol';

import { ProverInputError, pathBits, type InclusionPath } from './witness.js';

export type SettlementWitnessErrorCode =
  /** A mint or market id is not 32 bytes, or a mint half is not 128-bit. */
  | 'mint'
  /** A key, owner commitment, inner hash, root or sibling is not a field element. */
  | 'field'
  /** An amount, price, slot or market parameter is not a u64. */
  | 'u64'
  /** An order term is out of range (u64 terms, 128-bit order id and market halves, side 0 or 1). */
  | 'order_terms'
  /** A note amount (or a withdrawal) of 0, which the circuits refuse. */
  | 'amount_zero'
  /** VALID_LOCK for a remainder with nothing left: it would only freeze the note. */
  | 'remainder_empty'
  /** The inclusion path is malformed. */
  | 'path'
  /** The path does not lead to the given merkleRoot. */
  | 'root_mismatch'
  /** The opening does not give the use tag the lock recorded. */
  | 'use_tag_mismatch'
  /** VALID_MATCH: q is 0. */
  | 'quantity_zero'
  | 'price_scale_zero'
  /** quote = floor(q * p / price_scale) does not fit in a u64. */
  | 'quote_overflow'
  /** The price is above the bid's limit or below the ask's. */
  | 'price_outside_limit'
  /** q is more than an order's amount left. */
  | 'above_remainder'
  /** q is less than an order's min fill size. */
  | 'below_min_fill'
  /** An order expires at or before settle_by_slot. */
  | 'order_expired'
  /** A note cannot pay what it gives (its change would be negative). */
  | 'insufficient_note'
  /** The memos or output shards are malformed. */
  | 'memo';

/** The witness cannot be built as given; `side` names the party of a match when it is one side's fault. */
export class SettlementWitnessError extends ProverInputError {
  override readonly name: string = 'SettlementWitnessError';
  constructor(
    readonly code: SettlementWitnessErrorCode,
    message: string,
    readonly side?: 'bid' | 'ask',
  ) {
    super(side ? `${side}: ${message}` : message);
  }
}

export function fail(code: SettlementWitnessErrorCode, message: string, side?: 'bid' | 'ask'): never {
  throw new SettlementWitnessError(code, message, side);
}

export function u64(value: unknown, what: string, side?: 'bid' | 'ask'): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > U64_MAX)
    fail('u64', `${what} must be a u64 bigint`, side);
  return value;
}

export function field(value: unknown, what: string, side?: 'bid' | 'ask'): bigint {
  if (typeof value !== 'bigint' || value < 0n || value >= FIELD_MODULUS)
    fail('field', `${what} must be a field element (bigint in [0, r))`, side);
  return value;
}

export type Halves = { lo: bigint; hi: bigint };

export function split32(bytes: unknown, what: string): Halves {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) fail('mint', `${what} must be 32 bytes`);
  const { mintLo, mintHi } = mintToFields(bytes);
  return { lo: mintLo, hi: mintHi };
}

export function checkedTerms(terms: OrderTerms, side?: 'bid' | 'ask'): OrderTerms {
  try {
    assertOrderTerms(terms);
  } catch (err) {
    fail('order_terms', (err as Error).message, side);
  }
  return terms;
}

/** The order terms as the circuits' `order_*` / `market_*` input signals. */
export function termSignals(t: OrderTerms): Record<string, string> {
  return {
    order_side: String(t.side),
    order_amount: t.amount.toString(),
    order_price_limit: t.priceLimit.toString(),
    order_min_fill_size: t.minFillSize.toString(),
    order_expiry_slot: t.expirySlot.toString(),
    order_id: t.orderId.toString(),
    market_lo: t.marketLo.toString(),
    market_hi: t.marketHi.toString(),
  };
}

export interface NoteInTreeInput {
  mint: Halves;
  amount: bigint;
  owner: bigint;
  inner: bigint;
  path: InclusionPath;
  /** When given, the root the path leads to must equal it. */
  merkleRoot?: bigint;
}

/** A note's commitment and nullifier, and its path folded to the root (the circuits' NoteInTree). */
export function noteInTree(n: NoteInTreeInput) {
  if (!Array.isArray(n.path?.siblings) || n.path.siblings.length !== TREE_DEPTH)
    fail('path', `the inclusion path needs exactly ${TREE_DEPTH} siblings`);
  const siblings = n.path.siblings.map((s, i) => field(s, `path.siblings[${i}]`));
  let bits: number[];
  try {
    bits = pathBits(n.path);
  } catch (err) {
    fail('path', (err as Error).message);
  }
  const commitment = noteCommitment({
    mintLo: n.mint.lo,
    mintHi: n.mint.hi,
    amount: n.amount,
    openingHash: openingHash(n.owner, n.inner),
  });
  const merkleRoot = computeMerkleRoot(commitment, bits, siblings);
  if (n.merkleRoot !== undefined && merkleRoot !== n.merkleRoot)
    fail('root_mismatch', 'the inclusion path does not lead to merkleRoot');
  return {
    commitment,
    nullifier: noteNullifier(commitment, n.inner),
    merkleRoot,
    signals: { path_elements: siblings.map(String), path_indices: bits.map(String) },
  };
}
