/**
 * Circuit input for VALID_MATCH v2 (circuits/valid_match_v2.circom), built from the two locked
 * notes' openings, their orders' terms and the trade. Every match the circuit would reject throws
 * a SettlementWitnessError with a stable `code` (and `side`) before any proving.
 */
import {
  OutputRole,
  changeOutputInner,
  matchMemoHash,
  noteCommitment,
  noteNullifier,
  noteUseTag,
  openingHash,
  orderDigest,
  outputInner,
  type MatchOutputSlot,
  type OrderSide,
  type OrderTerms,
  type ValidMatchV2Public,
} from '@nightjar/crypto';
import { U64_MAX } from '@nightjar/protocol';

import { checkedTerms, fail, field, split32, u64, type Halves } from './witness-v2.js';
import type { CircuitInput } from './witness.js';

/** An order's terms besides its market and side (which the match fixes). */
export interface MatchOrderTerms {
  /** The amount left: the order's amount for a first fill, the remainder's after that. */
  amount: bigint;
  priceLimit: bigint;
  minFillSize: bigint;
  expirySlot: bigint;
  /** 128-bit (orderIdToField of @nightjar/crypto). */
  orderId: bigint;
}

export interface MatchV2Party {
  /** The locked note: its value, owner and inner hash. */
  amount: bigint;
  ownerCommitment: bigint;
  noteInnerHash: bigint;
  order: MatchOrderTerms;
  /** The use tag the lock recorded; when given, the opening must reproduce it. */
  useTag?: bigint;
}

/** The market's and the settlement's public values, as the ledger will supply them. */
type MatchV2Setting = Pick<
  ValidMatchV2Public,
  'marketId' | 'baseMint' | 'quoteMint' | 'priceScale' | 'feeBps' | 'feeOwnerCommitment' | 'settleBySlot'
>;

export interface ValidMatchV2Params extends MatchV2Setting {
  /** Base quantity q (non-zero) and clearing price p. */
  quantity: bigint;
  price: bigint;
  bid: MatchV2Party;
  ask: MatchV2Party;
  /** The two fill memos (DESIGN 7) and the shard of each of the six outputs, bound by the proof. */
  memos: { bid: Uint8Array; ask: Uint8Array; outputShards: readonly number[] };
}

export interface MatchV2OutputWitness {
  /** Index in MATCH_OUTPUT_SLOTS. */
  slot: MatchOutputSlot;
  amount: bigint;
  inner: bigint;
  commitment: bigint;
  nullifier: bigint;
}

export interface ValidMatchV2Witness {
  input: CircuitInput;
  publicInputs: ValidMatchV2Public;
  /** All six outputs in slot order, zero-value ones included (each is appended). */
  outputs: MatchV2OutputWitness[];
  /** Per side: the use tag opened, and the remainder the change note carries (VALID_LOCK's terms). */
  bid: { useTag: bigint; remainder: OrderTerms; remainderDigest: bigint };
  ask: { useTag: bigint; remainder: OrderTerms; remainderDigest: bigint };
}

type SideName = 'bid' | 'ask';

function party(name: SideName, side: OrderSide, p: MatchV2Party, market: Halves, mint: Halves) {
  const amount = u64(p.amount, 'amount', name);
  const owner = field(p.ownerCommitment, 'ownerCommitment', name);
  const inner = field(p.noteInnerHash, 'noteInnerHash', name);
  const terms = checkedTerms({ ...p.order, marketLo: market.lo, marketHi: market.hi, side }, name);
  const commitment = noteCommitment({
    mintLo: mint.lo,
    mintHi: mint.hi,
    amount,
    openingHash: openingHash(owner, inner),
  });
  const useTag = noteUseTag(commitment, inner, orderDigest(terms));
  if (p.useTag !== undefined && p.useTag !== useTag)
    fail('use_tag_mismatch', 'the note and order do not open the locked use tag', name);
  return { amount, owner, inner, terms, useTag };
}

type Party = ReturnType<typeof party>;

/** The order's terms against the trade, as the circuit checks them. */
function checkTerms(name: SideName, t: OrderTerms, q: bigint, settleBySlot: bigint): void {
  if (q > t.amount) fail('above_remainder', `q ${q} is above the amount left ${t.amount}`, name);
  if (q < t.minFillSize) fail('below_min_fill', `q ${q} is below the min fill ${t.minFillSize}`, name);
  if (t.expirySlot <= settleBySlot)
    fail('order_expired', `the order expires at ${t.expirySlot}, not after ${settleBySlot}`, name);
}

interface OutputSpec {
  slot: MatchOutputSlot;
  mint: Halves;
  amount: bigint;
  owner: bigint;
  inner: bigint;
}

function output(o: OutputSpec): MatchV2OutputWitness {
  const commitment = noteCommitment({
    mintLo: o.mint.lo,
    mintHi: o.mint.hi,
    amount: o.amount,
    openingHash: openingHash(o.owner, o.inner),
  });
  return {
    slot: o.slot,
    amount: o.amount,
    inner: o.inner,
    commitment,
    nullifier: noteNullifier(commitment, o.inner),
  };
}

/** Trade-out, change and fee of one side, in slot order. */
function sideOutputs(
  first: 0 | 3,
  s: Party,
  amounts: { receives: bigint; change: bigint; fee: bigint },
  mints: { own: Halves; other: Halves },
  feeOwner: bigint,
  remainderDigest: bigint,
): MatchV2OutputWitness[] {
  return [
    output({
      slot: first,
      mint: mints.other,
      amount: amounts.receives,
      owner: s.owner,
      inner: outputInner(s.inner, OutputRole.tradeOut),
    }),
    output({
      slot: (first + 1) as MatchOutputSlot,
      mint: mints.own,
      amount: amounts.change,
      owner: s.owner,
      inner: changeOutputInner(s.inner, remainderDigest),
    }),
    output({
      slot: (first + 2) as MatchOutputSlot,
      mint: mints.own,
      amount: amounts.fee,
      owner: feeOwner,
      inner: outputInner(s.inner, OutputRole.fee),
    }),
  ];
}

function memoHashOf(m: ValidMatchV2Params['memos']): bigint {
  try {
    return matchMemoHash(m.bid, m.ask, m.outputShards);
  } catch (err) {
    fail('memo', (err as Error).message);
  }
}

/** The trade's amounts: DESIGN 4, exact floors; the circuit checks each with its remainder. */
interface TradeAmounts {
  quote: bigint;
  quoteRem: bigint;
  bidFee: bigint;
  bidFeeRem: bigint;
  askFee: bigint;
  askFeeRem: bigint;
  bidChange: bigint;
  askChange: bigint;
}

function tradeAmounts(
  q: bigint,
  price: bigint,
  priceScale: bigint,
  feeBps: bigint,
  bid: Party,
  ask: Party,
): TradeAmounts {
  const quote = (q * price) / priceScale;
  const quoteRem = (q * price) % priceScale;
  if (quote > U64_MAX) fail('quote_overflow', `quote ${quote} does not fit in a u64`);
  const bidFee = (quote * feeBps) / 10000n;
  const askFee = (q * feeBps) / 10000n;
  const bidChange = bid.amount - quote - bidFee;
  const askChange = ask.amount - q - askFee;
  if (bidChange < 0n)
    fail('insufficient_note', `note of ${bid.amount} cannot pay ${quote} + fee ${bidFee}`, 'bid');
  if (askChange < 0n)
    fail('insufficient_note', `note of ${ask.amount} cannot pay ${q} + fee ${askFee}`, 'ask');
  const bidFeeRem = (quote * feeBps) % 10000n;
  const askFeeRem = (q * feeBps) % 10000n;
  return { quote, quoteRem, bidFee, bidFeeRem, askFee, askFeeRem, bidChange, askChange };
}

/** The clearing price against both limits, then each order's terms against the trade. */
function checkTrade(bid: Party, ask: Party, q: bigint, price: bigint, settleBySlot: bigint): void {
  if (price > bid.terms.priceLimit)
    fail('price_outside_limit', `price ${price} is above the limit ${bid.terms.priceLimit}`, 'bid');
  if (price < ask.terms.priceLimit)
    fail('price_outside_limit', `price ${price} is below the limit ${ask.terms.priceLimit}`, 'ask');
  checkTerms('bid', bid.terms, q, settleBySlot);
  checkTerms('ask', ask.terms, q, settleBySlot);
}

const s = (v: bigint) => v.toString();

function sideSignals(prefix: SideName, x: Party): Record<string, string> {
  return {
    [`${prefix}_amount`]: s(x.amount),
    [`${prefix}_owner`]: s(x.owner),
    [`${prefix}_inner`]: s(x.inner),
    [`${prefix}_order_amount`]: s(x.terms.amount),
    [`${prefix}_price_limit`]: s(x.terms.priceLimit),
    [`${prefix}_min_fill_size`]: s(x.terms.minFillSize),
    [`${prefix}_expiry_slot`]: s(x.terms.expirySlot),
    [`${prefix}_order_id`]: s(x.terms.orderId),
  };
}

/** The circuit's signals, in the order valid_match_v2.circom declares them. */
function circuitInput(
  pub: ValidMatchV2Public,
  halves: { market: Halves; base: Halves; quote: Halves },
  trade: { bid: Party; ask: Party; q: bigint; price: bigint; amounts: TradeAmounts },
): CircuitInput {
  const { market, base, quote } = halves;
  const { bid, ask, q, price, amounts: a } = trade;
  const c = pub.outputs;
  return {
    bid_use_tag: s(pub.bidUseTag),
    ask_use_tag: s(pub.askUseTag),
    market_lo: s(market.lo),
    market_hi: s(market.hi),
    base_mint_lo: s(base.lo),
    base_mint_hi: s(base.hi),
    quote_mint_lo: s(quote.lo),
    quote_mint_hi: s(quote.hi),
    price_scale: s(pub.priceScale),
    fee_bps: s(pub.feeBps),
    fee_owner_commitment: s(pub.feeOwnerCommitment),
    settle_by_slot: s(pub.settleBySlot),
    bid_trade_out: s(c[0]),
    bid_change: s(c[1]),
    bid_fee: s(c[2]),
    ask_trade_out: s(c[3]),
    ask_change: s(c[4]),
    ask_fee: s(c[5]),
    memo_hash: s(pub.memoHash),
    ...sideSignals('bid', bid),
    ...sideSignals('ask', ask),
    quantity: s(q),
    price: s(price),
    quote: s(a.quote),
    quote_rem: s(a.quoteRem),
    bid_fee_amount: s(a.bidFee),
    bid_fee_rem: s(a.bidFeeRem),
    ask_fee_amount: s(a.askFee),
    ask_fee_rem: s(a.askFeeRem),
    bid_change_amount: s(a.bidChange),
    ask_change_amount: s(a.askChange),
  };
}

export function validMatchV2Witness(p: ValidMatchV2Params): ValidMatchV2Witness {
  const market = split32(p.marketId, 'marketId');
  const base = split32(p.baseMint, 'baseMint');
  const quote = split32(p.quoteMint, 'quoteMint');
  const priceScale = u64(p.priceScale, 'priceScale');
  const feeBps = u64(p.feeBps, 'feeBps');
  const feeOwner = field(p.feeOwnerCommitment, 'feeOwnerCommitment');
  const settleBySlot = u64(p.settleBySlot, 'settleBySlot');
  const q = u64(p.quantity, 'quantity');
  const price = u64(p.price, 'price');
  if (q === 0n) fail('quantity_zero', 'quantity must be non-zero');
  if (priceScale === 0n) fail('price_scale_zero', 'priceScale must be non-zero');

  const bid = party('bid', 0, p.bid, market, quote);
  const ask = party('ask', 1, p.ask, market, base);
  checkTrade(bid, ask, q, price, settleBySlot);
  const amounts = tradeAmounts(q, price, priceScale, feeBps, bid, ask);

  const bidRemainder = { ...bid.terms, amount: bid.terms.amount - q };
  const askRemainder = { ...ask.terms, amount: ask.terms.amount - q };
  const bidRemainderDigest = orderDigest(bidRemainder);
  const askRemainderDigest = orderDigest(askRemainder);
  const outputs = [
    ...sideOutputs(
      0,
      bid,
      { receives: q, change: amounts.bidChange, fee: amounts.bidFee },
      { own: quote, other: base },
      feeOwner,
      bidRemainderDigest,
    ),
    ...sideOutputs(
      3,
      ask,
      { receives: amounts.quote, change: amounts.askChange, fee: amounts.askFee },
      { own: base, other: quote },
      feeOwner,
      askRemainderDigest,
    ),
  ];
  const publicInputs: ValidMatchV2Public = {
    bidUseTag: bid.useTag,
    askUseTag: ask.useTag,
    marketId: new Uint8Array(p.marketId),
    baseMint: new Uint8Array(p.baseMint),
    quoteMint: new Uint8Array(p.quoteMint),
    priceScale,
    feeBps,
    feeOwnerCommitment: feeOwner,
    settleBySlot,
    outputs: outputs.map((o) => o.commitment) as [bigint, bigint, bigint, bigint, bigint, bigint],
    memoHash: memoHashOf(p.memos),
  };
  return {
    input: circuitInput(publicInputs, { market, base, quote }, { bid, ask, q, price, amounts }),
    publicInputs,
    outputs,
    bid: { useTag: bid.useTag, remainder: bidRemainder, remainderDigest: bidRemainderDigest },
    ask: { useTag: ask.useTag, remainder: askRemainder, remainderDigest: askRemainderDigest },
  };
}
