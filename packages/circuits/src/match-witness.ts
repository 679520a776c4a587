/**
 * Circuit input for VALID_MATCH (circuits/valid_match.circom), built from the two consumed notes'
 * openings and the trade. Pure and synchronous: the engine calls it before proving, and every
 * match the circuit would reject throws a MatchWitnessError with a stable `code` instead of
 * failing later inside the prover.
 */
import {
  OutputRole,
  TREE_DEPTH,
  computeMerkleRoot,
  noteCommitment,
  noteNullifier,
  openingHash,
  outputInner,
  type MatchOutputSlot,
  type ValidMatchPublic,
} from '@nightjar/crypto';
import { FIELD_MODULUS, U64_MAX, mintToFields } from '@nightjar/protocol';

import { ProverInputError, pathBits } from './witness.js';

export interface MatchPartyInput {
  /** Value of the consumed note (u64). */
  amount: bigint;
  ownerCommitment: bigint;
  noteInnerHash: bigint;
  /** The root the ledger will check (from the shard's recent-root window). */
  merkleRoot: bigint;
  /** The note commitment's inclusion path: 20 siblings from the leaf up, and its leaf index. */
  path: { siblings: bigint[]; leafIndex: number };
  /** Relock this side's change note (requires change > 0). */
  relock: boolean;
}

export interface ValidMatchParams {
  /** 32 bytes each. */
  baseMint: Uint8Array;
  quoteMint: Uint8Array;
  priceScale: bigint;
  feeBps: bigint;
  feeOwnerCommitment: bigint;
  /** Base quantity q (non-zero) and clearing price p (quote units per price_scale base units). */
  quantity: bigint;
  price: bigint;
  /** The bid consumes a quote-mint note, the ask a base-mint note. */
  bid: MatchPartyInput;
  ask: MatchPartyInput;
}

export interface MatchOutputWitness {
  /** Index in MATCH_OUTPUT_SLOTS. */
  slot: MatchOutputSlot;
  amount: bigint;
  inner: bigint;
  commitment: bigint;
  /** The output note's own nullifier (what a relock of a change note carries). */
  nullifier: bigint;
}

export interface ValidMatchWitness {
  /** Every input signal of the circuit by name, as decimal strings. */
  input: Record<string, string | string[]>;
  publicInputs: ValidMatchPublic;
  /** Present (non-zero) outputs only, in slot order. */
  outputs: MatchOutputWitness[];
}

export type MatchWitnessErrorCode =
  /** A mint is not 32 bytes. */
  | 'mint'
  /** An owner commitment, inner hash, root or sibling is not a field element. */
  | 'field'
  /** An input amount, q, p, price_scale or fee_bps is not a u64. */
  | 'u64'
  | 'quantity_zero'
  | 'price_scale_zero'
  /** quote = floor(q * p / price_scale) does not fit in a u64. */
  | 'quote_overflow'
  /** A side's note cannot pay what it gives (its change would be negative). */
  | 'insufficient_note'
  /** Relock asked for a side whose change is zero. */
  | 'relock_without_change'
  /** The inclusion path is malformed. */
  | 'path'
  /** The path does not lead to the given merkleRoot. */
  | 'root_mismatch';

/** The match cannot be proved as given; `side` says which party, when it is one side's fault. */
export class MatchWitnessError extends ProverInputError {
  override readonly name: string = 'MatchWitnessError';
  constructor(
    readonly code: MatchWitnessErrorCode,
    message: string,
    readonly side?: 'bid' | 'ask',
  ) {
    super(message);
  }
}

function fail(code: MatchWitnessErrorCode, message: string, side?: 'bid' | 'ask'): never {
  throw new MatchWitnessError(code, side ? `${side}: ${message}` : message, side);
}

function u64(value: unknown, what: string, side?: 'bid' | 'ask'): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > U64_MAX)
    fail('u64', `${what} must be a u64 bigint`, side);
  return value;
}

function field(value: unknown, what: string, side?: 'bid' | 'ask'): bigint {
  if (typeof value !== 'bigint' || value < 0n || value >= FIELD_MODULUS) {
    fail('field', `${what} must be a field element (bigint in [0, r))`, side);
  }
  return value;
}

function mint(bytes: unknown, what: string): { lo: bigint; hi: bigint } {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) fail('mint', `${what} must be 32 bytes`);
  const { mintLo, mintHi } = mintToFields(bytes);
  return { lo: mintLo, hi: mintHi };
}

type Mint = { lo: bigint; hi: bigint };

/** One consumed note: its commitment, nullifier and path signals, checked against its root. */
function spentNote(side: 'bid' | 'ask', party: MatchPartyInput, m: Mint) {
  const amount = u64(party.amount, 'amount', side);
  const owner = field(party.ownerCommitment, 'ownerCommitment', side);
  const inner = field(party.noteInnerHash, 'noteInnerHash', side);
  const root = field(party.merkleRoot, 'merkleRoot', side);
  const siblings = party.path?.siblings;
  if (!Array.isArray(siblings) || siblings.length !== TREE_DEPTH) {
    fail('path', `the inclusion path needs exactly ${TREE_DEPTH} siblings`, side);
  }
  siblings.forEach((s, i) => field(s, `path.siblings[${i}]`, side));
  let bits: number[];
  try {
    bits = pathBits({ siblings, leafIndex: party.path.leafIndex });
  } catch (err) {
    fail('path', (err as Error).message, side);
  }
  const commitment = noteCommitment({
    mintLo: m.lo,
    mintHi: m.hi,
    amount,
    openingHash: openingHash(owner, inner),
  });
  if (computeMerkleRoot(commitment, bits, siblings) !== root) {
    fail('root_mismatch', 'the inclusion path does not lead to merkleRoot', side);
  }
  return { amount, owner, inner, root, bits, siblings, nullifier: noteNullifier(commitment, inner) };
}

interface OutputSpec {
  slot: MatchOutputSlot;
  mint: Mint;
  amount: bigint;
  owner: bigint;
  parentInner: bigint;
  role: OutputRole;
}

function output(spec: OutputSpec): MatchOutputWitness {
  const inner = outputInner(spec.parentInner, spec.role);
  const commitment = noteCommitment({
    mintLo: spec.mint.lo,
    mintHi: spec.mint.hi,
    amount: spec.amount,
    openingHash: openingHash(spec.owner, inner),
  });
  return {
    slot: spec.slot,
    amount: spec.amount,
    inner,
    commitment,
    nullifier: noteNullifier(commitment, inner),
  };
}

export function validMatchWitness(p: ValidMatchParams): ValidMatchWitness {
  const base = mint(p.baseMint, 'baseMint');
  const quote = mint(p.quoteMint, 'quoteMint');
  const priceScale = u64(p.priceScale, 'priceScale');
  const feeBps = u64(p.feeBps, 'feeBps');
  const feeOwner = field(p.feeOwnerCommitment, 'feeOwnerCommitment');
  const q = u64(p.quantity, 'quantity');
  const price = u64(p.price, 'price');
  if (q === 0n) fail('quantity_zero', 'quantity must be non-zero');
  if (priceScale === 0n) fail('price_scale_zero', 'priceScale must be non-zero');

  const bid = spentNote('bid', p.bid, quote);
  const ask = spentNote('ask', p.ask, base);

  // DESIGN 4, exact floors; the circuit checks each with its remainder.
  const quoteAmount = (q * price) / priceScale;
  const quoteRem = (q * price) % priceScale;
  if (quoteAmount > U64_MAX) fail('quote_overflow', `quote ${quoteAmount} does not fit in a u64`);
  const bidFee = (quoteAmount * feeBps) / 10000n;
  const bidFeeRem = (quoteAmount * feeBps) % 10000n;
  const askFee = (q * feeBps) / 10000n;
  const askFeeRem = (q * feeBps) % 10000n;
  const bidChange = bid.amount - quoteAmount - bidFee;
  const askChange = ask.amount - q - askFee;
  if (bidChange < 0n) {
    fail('insufficient_note', `note of ${bid.amount} cannot pay quote ${quoteAmount} + fee ${bidFee}`, 'bid');
  }
  if (askChange < 0n)
    fail('insufficient_note', `note of ${ask.amount} cannot pay ${q} + fee ${askFee}`, 'ask');
  if (p.bid.relock && bidChange === 0n)
    fail('relock_without_change', 'relock needs a non-zero change', 'bid');
  if (p.ask.relock && askChange === 0n)
    fail('relock_without_change', 'relock needs a non-zero change', 'ask');

  const { tradeOut, change, fee } = OutputRole;
  const specs: OutputSpec[] = [
    { slot: 0, mint: base, amount: q, owner: bid.owner, parentInner: bid.inner, role: tradeOut },
    { slot: 1, mint: quote, amount: bidChange, owner: bid.owner, parentInner: bid.inner, role: change },
    { slot: 2, mint: quote, amount: bidFee, owner: feeOwner, parentInner: bid.inner, role: fee },
    { slot: 3, mint: quote, amount: quoteAmount, owner: ask.owner, parentInner: ask.inner, role: tradeOut },
    { slot: 4, mint: base, amount: askChange, owner: ask.owner, parentInner: ask.inner, role: change },
    { slot: 5, mint: base, amount: askFee, owner: feeOwner, parentInner: ask.inner, role: fee },
  ];
  const all = specs.map(output);
  const slotValue = (o: MatchOutputWitness) => (o.amount === 0n ? 0n : o.commitment);
  const slots = all.map(slotValue) as [bigint, bigint, bigint, bigint, bigint, bigint];
  const bidRelock = p.bid.relock ? (all[1] as MatchOutputWitness).nullifier : 0n;
  const askRelock = p.ask.relock ? (all[4] as MatchOutputWitness).nullifier : 0n;

  const publicInputs: ValidMatchPublic = {
    rootBid: bid.root,
    nullifierBid: bid.nullifier,
    rootAsk: ask.root,
    nullifierAsk: ask.nullifier,
    baseMint: new Uint8Array(p.baseMint),
    quoteMint: new Uint8Array(p.quoteMint),
    priceScale,
    feeBps,
    feeOwnerCommitment: feeOwner,
    outputs: slots,
    bidRelockNullifier: bidRelock,
    askRelockNullifier: askRelock,
  };

  const s = (v: bigint) => v.toString();
  const input: Record<string, string | string[]> = {
    root_bid: s(bid.root),
    nullifier_bid: s(bid.nullifier),
    root_ask: s(ask.root),
    nullifier_ask: s(ask.nullifier),
    base_mint_lo: s(base.lo),
    base_mint_hi: s(base.hi),
    quote_mint_lo: s(quote.lo),
    quote_mint_hi: s(quote.hi),
    price_scale: s(priceScale),
    fee_bps: s(feeBps),
    fee_owner_commitment: s(feeOwner),
    bid_trade_out: s(slots[0]),
    bid_change: s(slots[1]),
    bid_fee: s(slots[2]),
    ask_trade_out: s(slots[3]),
    ask_change: s(slots[4]),
    ask_fee: s(slots[5]),
    bid_relock_nullifier: s(bidRelock),
    ask_relock_nullifier: s(askRelock),
    bid_amount: s(bid.amount),
    bid_owner: s(bid.owner),
    bid_inner: s(bid.inner),
    bid_path_elements: bid.siblings.map(s),
    bid_path_indices: bid.bits.map(String),
    ask_amount: s(ask.amount),
    ask_owner: s(ask.owner),
    ask_inner: s(ask.inner),
    ask_path_elements: ask.siblings.map(s),
    ask_path_indices: ask.bits.map(String),
    quantity: s(q),
    price: s(price),
    quote: s(quoteAmount),
    quote_rem: s(quoteRem),
    bid_fee_amount: s(bidFee),
    bid_fee_rem: s(bidFeeRem),
    ask_fee_amount: s(askFee),
    ask_fee_rem: s(askFeeRem),
    bid_change_amount: s(bidChange),
    ask_change_amount: s(askChange),
  };
  return { input, publicInputs, outputs: all.filter((o) => o.amount !== 0n) };
}
