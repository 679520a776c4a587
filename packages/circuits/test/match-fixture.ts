/**
 * VALID_MATCH test fixtures: two funded notes (the bid's in the quote mint, the ask's in the base
 * mint) in one tree with a few unrelated leaves, and match parameters built on them.
 */
import { MerkleTree, deriveNote, ownerCommitment, poseidon } from '@nightjar/crypto';
import { FIELD_MODULUS as R, mintToFields } from '@nightjar/protocol';

import type { MatchPartyInput, ValidMatchParams } from '../src/match-witness.js';

export const BASE_MINT = Uint8Array.from({ length: 32 }, (_, i) => 0x10 + i);
export const QUOTE_MINT = Uint8Array.from({ length: 32 }, (_, i) => 0xa0 + i);
export const BID_KEY = 0x1111222233334444555566667777888899990000aaaabbbbccccddddeeeeffffn;
export const ASK_KEY = 0x0fedcba987654321fedcba987654321fedcba987654321fedcba987654321fn;
export const FEE_OWNER = ownerCommitment(0x5eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeen);
export const ATTACKER = ownerCommitment(0xbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadn);

export interface Side {
  amount: bigint;
  key: bigint;
  inner: bigint;
}

export interface MatchSetup {
  /** Base quantity and price; price_scale and fee_bps of the market. */
  quantity: bigint;
  price: bigint;
  priceScale?: bigint;
  feeBps?: bigint;
  bid: Side;
  ask: Side;
  bidRelock?: boolean;
  askRelock?: boolean;
}

/** Builds the tree holding both notes (bid at leaf 3, ask at leaf 6) and the params. */
export function matchParams(s: MatchSetup): { params: ValidMatchParams; tree: MerkleTree } {
  const bidNote = deriveNote({
    mint: QUOTE_MINT,
    amount: s.bid.amount,
    ownerCommitment: ownerCommitment(s.bid.key),
    noteInnerHash: s.bid.inner,
  });
  const askNote = deriveNote({
    mint: BASE_MINT,
    amount: s.ask.amount,
    ownerCommitment: ownerCommitment(s.ask.key),
    noteInnerHash: s.ask.inner,
  });
  const tree = new MerkleTree();
  const leaves = [101n, 102n, 103n, bidNote.noteCommitment, 104n, 105n, askNote.noteCommitment, 106n];
  for (const leaf of leaves) tree.append(leaf);
  const party = (side: Side, index: number, relock: boolean): MatchPartyInput => {
    const proof = tree.proof(index);
    return {
      amount: side.amount,
      ownerCommitment: ownerCommitment(side.key),
      noteInnerHash: side.inner,
      merkleRoot: tree.root,
      path: { siblings: proof.siblings, leafIndex: index },
      relock,
    };
  };
  return {
    tree,
    params: {
      baseMint: BASE_MINT,
      quoteMint: QUOTE_MINT,
      priceScale: s.priceScale ?? 1_000_000n,
      feeBps: s.feeBps ?? 25n,
      feeOwnerCommitment: FEE_OWNER,
      quantity: s.quantity,
      price: s.price,
      bid: party(s.bid, 3, s.bidRelock ?? false),
      ask: party(s.ask, 6, s.askRelock ?? false),
    },
  };
}

export const BID: Side = {
  amount: 0n,
  key: BID_KEY,
  inner: 0x2222222222222222222222222222222222222222222222222222222222222222n % R,
};
export const ASK: Side = {
  amount: 0n,
  key: ASK_KEY,
  inner: 0x3333333333333333333333333333333333333333333333333333333333333333n % R,
};

/**
 * The honest match the VALID_MATCH tests start from: a partial fill on both sides, each change
 * note relocked (quote 7,500; fees 18 and 7 at 25 bps).
 */
export const PARTIAL_FILL: MatchSetup = {
  quantity: 3_000n,
  price: 2_500_000n,
  bid: { ...BID, amount: 10_000n },
  ask: { ...ASK, amount: 5_000n },
  bidRelock: true,
  askRelock: true,
};

/** Mint halves as the circuit takes them. */
export const BASE = mintToFields(BASE_MINT);
export const QUOTE = mintToFields(QUOTE_MINT);

/**
 * Poseidon(2, mint_lo, mint_hi, amount, Poseidon(6, owner, inner)) with no range checks, so that
 * tests can commit to out-of-range (wrapped) amounts.
 */
export function rawCommitment(
  mint: { mintLo: bigint; mintHi: bigint },
  amount: bigint,
  owner: bigint,
  inner: bigint,
): bigint {
  const a = ((amount % R) + R) % R;
  return poseidon([2n, mint.mintLo, mint.mintHi, a, poseidon([6n, owner, inner])]);
}

/** Poseidon(4, parent, role). */
export const rawInner = (parent: bigint, role: 1n | 2n | 3n): bigint => poseidon([4n, parent, role]);
/** Poseidon(5, commitment, inner). */
export const rawNullifier = (commitment: bigint, inner: bigint): bigint => poseidon([5n, commitment, inner]);

/** x mod r as a decimal string (a negative x wraps, as the field does). */
export const fieldStr = (x: bigint): string => (((x % R) + R) % R).toString();

/**
 * Values a forged VALID_MATCH input may override; everything not given is computed honestly
 * from the (possibly inconsistent) rest, with no range or sign checks, so that each test breaks
 * exactly one rule and keeps every other constraint satisfied.
 */
export interface Forgery {
  bidAmount: bigint;
  askAmount: bigint;
  quantity: bigint;
  price: bigint;
  priceScale: bigint;
  feeBps: bigint;
  quote?: bigint;
  quoteRem?: bigint;
  bidFee?: bigint;
  bidFeeRem?: bigint;
  askFee?: bigint;
  askFeeRem?: bigint;
  bidChange?: bigint;
  askChange?: bigint;
  /** Owner committed to in an output slot (default: the input's owner, the fee owner for fees). */
  slotOwner?: Partial<Record<0 | 1 | 2 | 3 | 4 | 5, bigint>>;
  /** Amount committed to in an output slot (default: the amount the circuit derives). */
  slotAmount?: Partial<Record<0 | 1 | 2 | 3 | 4 | 5, bigint>>;
  /** Public slot values, replacing the commitments outright. */
  slotValue?: Partial<Record<0 | 1 | 2 | 3 | 4 | 5, bigint>>;
  bidRelock?: boolean | bigint;
  askRelock?: boolean | bigint;
}

/** A VALID_MATCH circuit input for the notes of `matchParams` (bid at leaf 3, ask at leaf 6). */
export function forgeInput(f: Forgery): {
  input: Record<string, string | string[]>;
  tree: MerkleTree;
  /** What each output slot commits to (before slotValue). */
  commitments: bigint[];
  inners: bigint[];
} {
  const bidOwner = ownerCommitment(BID.key);
  const askOwner = ownerCommitment(ASK.key);
  const bidCommitment = rawCommitment(QUOTE, f.bidAmount, bidOwner, BID.inner);
  const askCommitment = rawCommitment(BASE, f.askAmount, askOwner, ASK.inner);
  const tree = new MerkleTree();
  for (const leaf of [101n, 102n, 103n, bidCommitment, 104n, 105n, askCommitment, 106n]) tree.append(leaf);

  const qp = f.quantity * f.price;
  const quote = f.quote ?? (f.priceScale === 0n ? 0n : qp / f.priceScale);
  const quoteRem = f.quoteRem ?? qp - quote * f.priceScale;
  const bidFee = f.bidFee ?? (quote * f.feeBps) / 10000n;
  const bidFeeRem = f.bidFeeRem ?? quote * f.feeBps - bidFee * 10000n;
  const askFee = f.askFee ?? (f.quantity * f.feeBps) / 10000n;
  const askFeeRem = f.askFeeRem ?? f.quantity * f.feeBps - askFee * 10000n;
  const bidChange = f.bidChange ?? f.bidAmount - quote - bidFee;
  const askChange = f.askChange ?? f.askAmount - f.quantity - askFee;

  const slots = [
    { mint: BASE, amount: f.quantity, owner: bidOwner, parent: BID.inner, role: 1n },
    { mint: QUOTE, amount: bidChange, owner: bidOwner, parent: BID.inner, role: 2n },
    { mint: QUOTE, amount: bidFee, owner: FEE_OWNER, parent: BID.inner, role: 3n },
    { mint: QUOTE, amount: quote, owner: askOwner, parent: ASK.inner, role: 1n },
    { mint: BASE, amount: askChange, owner: askOwner, parent: ASK.inner, role: 2n },
    { mint: BASE, amount: askFee, owner: FEE_OWNER, parent: ASK.inner, role: 3n },
  ] as const;
  const inners = slots.map((s) => rawInner(s.parent, s.role as 1n | 2n | 3n));
  const amounts = slots.map((s, i) => f.slotAmount?.[i as 0] ?? s.amount);
  const commitments = slots.map((s, i) =>
    rawCommitment(s.mint, amounts[i] as bigint, f.slotOwner?.[i as 0] ?? s.owner, inners[i] as bigint),
  );
  const values = commitments.map((c, i) => f.slotValue?.[i as 0] ?? (amounts[i] === 0n ? 0n : c));
  const relock = (r: boolean | bigint | undefined, slot: 1 | 4): bigint =>
    typeof r === 'bigint' ? r : r ? rawNullifier(commitments[slot] as bigint, inners[slot] as bigint) : 0n;
  const bidProof = tree.proof(3);
  const askProof = tree.proof(6);
  const s = fieldStr;
  return {
    tree,
    commitments,
    inners,
    input: {
      root_bid: s(tree.root),
      nullifier_bid: s(rawNullifier(bidCommitment, BID.inner)),
      root_ask: s(tree.root),
      nullifier_ask: s(rawNullifier(askCommitment, ASK.inner)),
      base_mint_lo: s(BASE.mintLo),
      base_mint_hi: s(BASE.mintHi),
      quote_mint_lo: s(QUOTE.mintLo),
      quote_mint_hi: s(QUOTE.mintHi),
      price_scale: s(f.priceScale),
      fee_bps: s(f.feeBps),
      fee_owner_commitment: s(FEE_OWNER),
      bid_trade_out: s(values[0] as bigint),
      bid_change: s(values[1] as bigint),
      bid_fee: s(values[2] as bigint),
      ask_trade_out: s(values[3] as bigint),
      ask_change: s(values[4] as bigint),
      ask_fee: s(values[5] as bigint),
      bid_relock_nullifier: s(relock(f.bidRelock, 1)),
      ask_relock_nullifier: s(relock(f.askRelock, 4)),
      bid_amount: s(f.bidAmount),
      bid_owner: s(bidOwner),
      bid_inner: s(BID.inner),
      bid_path_elements: bidProof.siblings.map(s),
      bid_path_indices: bidProof.pathIndices.map(String),
      ask_amount: s(f.askAmount),
      ask_owner: s(askOwner),
      ask_inner: s(ASK.inner),
      ask_path_elements: askProof.siblings.map(s),
      ask_path_indices: askProof.pathIndices.map(String),
      quantity: s(f.quantity),
      price: s(f.price),
      quote: s(quote),
      quote_rem: s(quoteRem),
      bid_fee_amount: s(bidFee),
      bid_fee_rem: s(bidFeeRem),
      ask_fee_amount: s(askFee),
      ask_fee_rem: s(askFeeRem),
      bid_change_amount: s(bidChange),
      ask_change_amount: s(askChange),
    },
  };
}
