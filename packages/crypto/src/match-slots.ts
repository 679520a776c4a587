/**
 * VALID_MATCH's public inputs (DESIGN.md section 6): one proof per match, checked by the ledger
 * against values it takes from its own state (roots from the recent-root windows, mints, price
 * scale and fee rate from the market record, the fee owner from the vault) and from `settle_batch`
 * (nullifiers, output commitments, relock nullifiers). Nothing here is secret: the amounts, price,
 * owners and input commitments stay private witness values.
 *
 * The six output slots are fixed by role; 0 means "no such output" (a zero-value output is never
 * created). A relock slot is 0 unless that side's change note is relocked.
 */
import { mintToFields } from '@nightjar/protocol';

/** Circom declares the public signals in this order; the verifier takes them in this order. */
export const VALID_MATCH_PUBLIC_INPUTS = [
  'root_bid',
  'nullifier_bid',
  'root_ask',
  'nullifier_ask',
  'base_mint_lo',
  'base_mint_hi',
  'quote_mint_lo',
  'quote_mint_hi',
  'price_scale',
  'fee_bps',
  'fee_owner_commitment',
  'bid_trade_out',
  'bid_change',
  'bid_fee',
  'ask_trade_out',
  'ask_change',
  'ask_fee',
  'bid_relock_nullifier',
  'ask_relock_nullifier',
] as const;

/**
 * Output slots by index, as `settle_batch` names them: the bid's input (quote mint) yields its
 * trade-out (base), change (quote) and fee (quote); the ask's input (base mint) its trade-out
 * (quote), change (base) and fee (base).
 */
export const MATCH_OUTPUT_SLOTS = [
  { name: 'bid_trade_out', side: 'bid', role: 1, mint: 'base' },
  { name: 'bid_change', side: 'bid', role: 2, mint: 'quote' },
  { name: 'bid_fee', side: 'bid', role: 3, mint: 'quote' },
  { name: 'ask_trade_out', side: 'ask', role: 1, mint: 'quote' },
  { name: 'ask_change', side: 'ask', role: 2, mint: 'base' },
  { name: 'ask_fee', side: 'ask', role: 3, mint: 'base' },
] as const;

export type MatchOutputSlot = 0 | 1 | 2 | 3 | 4 | 5;
/** The change slots, the only ones that may carry a relock. */
export const CHANGE_SLOT = { bid: 1, ask: 4 } as const satisfies Record<'bid' | 'ask', MatchOutputSlot>;

export interface ValidMatchPublic {
  rootBid: bigint;
  nullifierBid: bigint;
  rootAsk: bigint;
  nullifierAsk: bigint;
  /** 32-byte mint addresses. */
  baseMint: Uint8Array;
  quoteMint: Uint8Array;
  priceScale: bigint;
  feeBps: bigint;
  feeOwnerCommitment: bigint;
  /** Output commitments by slot (`MATCH_OUTPUT_SLOTS`), 0n where the slot has no output. */
  outputs: readonly [bigint, bigint, bigint, bigint, bigint, bigint];
  bidRelockNullifier: bigint;
  askRelockNullifier: bigint;
}

/** The public signals in circuit order (`VALID_MATCH_PUBLIC_INPUTS`). */
export function validMatchPublicSignals(p: ValidMatchPublic): bigint[] {
  const base = mintToFields(p.baseMint);
  const quote = mintToFields(p.quoteMint);
  return [
    p.rootBid,
    p.nullifierBid,
    p.rootAsk,
    p.nullifierAsk,
    base.mintLo,
    base.mintHi,
    quote.mintLo,
    quote.mintHi,
    p.priceScale,
    p.feeBps,
    p.feeOwnerCommitment,
    ...p.outputs,
    p.bidRelockNullifier,
    p.askRelockNullifier,
  ];
}
