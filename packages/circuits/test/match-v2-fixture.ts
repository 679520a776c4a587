/**
 * VALID_MATCH v2 fixtures: a market, two locked notes with their orders, the honest parameters,
 * and a forger that writes a circuit input from raw (possibly inconsistent) values, so that each
 * test breaks exactly one rule while every constraint the circuit checks before it holds.
 */
import {
  FILL_MEMO_BYTES,
  changeOutputInner,
  matchMemoHash,
  orderDigest,
  ownerCommitment,
  noteUseTag,
  type OrderSide,
  type OrderTerms,
} from '@nightjar/crypto';
import { mintToFields } from '@nightjar/protocol';

import type { MatchOrderTerms, MatchV2Party, ValidMatchV2Params } from '../src/match-witness-v2.js';
import {
  ASK,
  BASE,
  BASE_MINT,
  BID,
  FEE_OWNER,
  QUOTE,
  QUOTE_MINT,
  fieldStr,
  rawCommitment,
  rawInner,
} from './match-fixture.js';

export const MARKET_ID = Uint8Array.from({ length: 32 }, (_, i) => 0x40 + 3 * i);
export const MARKET = mintToFields(MARKET_ID);
export const SETTLE_BY = 5_000n;
export const MEMOS = {
  bid: new Uint8Array(FILL_MEMO_BYTES).fill(0xb1),
  ask: new Uint8Array(FILL_MEMO_BYTES).fill(0xa5),
  outputShards: [0, 1, 2, 3, 0, 1],
};
export const MEMO_HASH = matchMemoHash(MEMOS.bid, MEMOS.ask, MEMOS.outputShards);

export const BID_ORDER: MatchOrderTerms = {
  amount: 5_000n,
  priceLimit: 2_600_000n,
  minFillSize: 1_000n,
  expirySlot: 9_000n,
  orderId: 0x0102030405060708090a0b0c0d0e0f10n,
};
export const ASK_ORDER: MatchOrderTerms = {
  amount: 4_000n,
  priceLimit: 2_400_000n,
  minFillSize: 500n,
  expirySlot: 8_000n,
  orderId: 0xf0e0d0c0b0a090807060504030201000n,
};

export interface PartySetup {
  amount: bigint;
  key: bigint;
  inner: bigint;
  order: MatchOrderTerms;
}

export interface MatchV2Setup {
  quantity: bigint;
  price: bigint;
  priceScale?: bigint;
  feeBps?: bigint;
  settleBySlot?: bigint;
  bid: PartySetup;
  ask: PartySetup;
}

/** Partial fill on both sides: q 3,000 at 2.5, quote 7,500, fees 18 and 7 at 25 bps. */
export const PARTIAL: MatchV2Setup = {
  quantity: 3_000n,
  price: 2_500_000n,
  bid: { amount: 10_000n, key: BID.key, inner: BID.inner, order: BID_ORDER },
  ask: { amount: 5_000n, key: ASK.key, inner: ASK.inner, order: ASK_ORDER },
};

export const terms = (side: OrderSide, o: MatchOrderTerms): OrderTerms => ({
  ...o,
  side,
  marketLo: MARKET.mintLo,
  marketHi: MARKET.mintHi,
});

const party = (s: PartySetup): MatchV2Party => ({
  amount: s.amount,
  ownerCommitment: ownerCommitment(s.key),
  noteInnerHash: s.inner,
  order: s.order,
});

export function matchV2Params(s: MatchV2Setup): ValidMatchV2Params {
  return {
    marketId: MARKET_ID,
    baseMint: BASE_MINT,
    quoteMint: QUOTE_MINT,
    priceScale: s.priceScale ?? 1_000_000n,
    feeBps: s.feeBps ?? 25n,
    feeOwnerCommitment: FEE_OWNER,
    settleBySlot: s.settleBySlot ?? SETTLE_BY,
    quantity: s.quantity,
    price: s.price,
    bid: party(s.bid),
    ask: party(s.ask),
    memos: MEMOS,
  };
}

type Slot = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * What a forged input may override; everything else is derived from the setup as the honest
 * builder would, with no range or sign checks (a negative value wraps mod r, as in the field).
 */
export interface MatchForgery {
  /** The terms the lock's use tag was really made from (default: the order's own). */
  tagTerms?: { bid?: Partial<OrderTerms>; ask?: Partial<OrderTerms> };
  quote?: bigint;
  quoteRem?: bigint;
  bidFee?: bigint;
  bidFeeRem?: bigint;
  askFee?: bigint;
  askFeeRem?: bigint;
  bidChange?: bigint;
  askChange?: bigint;
  /** Owner committed to in an output slot (default: the input's owner, the fee owner for fees). */
  slotOwner?: Partial<Record<Slot, bigint>>;
  /** The amount left that a change note's remainder digest carries (default: order amount − q). */
  remainderAmount?: { bid?: bigint; ask?: bigint };
  /** Public slot values, replacing the commitments outright. */
  slotValue?: Partial<Record<Slot, bigint>>;
}

/** An order digest, or 0 when a (forged) term is out of range: the circuit fails before using it. */
function digestOrZero(t: OrderTerms): bigint {
  try {
    return orderDigest(t);
  } catch {
    return 0n;
  }
}

export function forgeMatchV2(s: MatchV2Setup, f: MatchForgery = {}): Record<string, string> {
  const p = matchV2Params(s);
  const q = s.quantity;
  const qp = q * s.price;
  const quote = f.quote ?? (p.priceScale === 0n ? 0n : qp / p.priceScale);
  const quoteRem = f.quoteRem ?? qp - quote * p.priceScale;
  const bidFee = f.bidFee ?? (quote * p.feeBps) / 10000n;
  const bidFeeRem = f.bidFeeRem ?? quote * p.feeBps - bidFee * 10000n;
  const askFee = f.askFee ?? (q * p.feeBps) / 10000n;
  const askFeeRem = f.askFeeRem ?? q * p.feeBps - askFee * 10000n;
  const bidChange = f.bidChange ?? s.bid.amount - quote - bidFee;
  const askChange = f.askChange ?? s.ask.amount - q - askFee;

  const sides = [
    { name: 'bid', side: 0, setup: s.bid, own: QUOTE, other: BASE, pays: [q, bidChange, bidFee] },
    { name: 'ask', side: 1, setup: s.ask, own: BASE, other: QUOTE, pays: [quote, askChange, askFee] },
  ] as const;
  const input: Record<string, string> = {};
  const slots: bigint[] = [];
  for (const x of sides) {
    const owner = ownerCommitment(x.setup.key);
    const own = terms(x.side, x.setup.order);
    const tagged = { ...own, ...f.tagTerms?.[x.name] };
    const commitment = rawCommitment(x.own, x.setup.amount, owner, x.setup.inner);
    const remainder = f.remainderAmount?.[x.name] ?? own.amount - q;
    const outputs = [
      { mint: x.other, amount: x.pays[0], owner, inner: rawInner(x.setup.inner, 1n) },
      {
        mint: x.own,
        amount: x.pays[1],
        owner,
        inner:
          remainder < 0n ? 0n : changeOutputInner(x.setup.inner, digestOrZero({ ...own, amount: remainder })),
      },
      { mint: x.own, amount: x.pays[2], owner: FEE_OWNER, inner: rawInner(x.setup.inner, 3n) },
    ];
    outputs.forEach((o, i) => {
      const slot = (x.side * 3 + i) as Slot;
      slots[slot] =
        f.slotValue?.[slot] ?? rawCommitment(o.mint, o.amount, f.slotOwner?.[slot] ?? o.owner, o.inner);
    });
    Object.assign(input, {
      [`${x.name}_use_tag`]: fieldStr(noteUseTag(commitment, x.setup.inner, digestOrZero(tagged))),
      [`${x.name}_amount`]: fieldStr(x.setup.amount),
      [`${x.name}_owner`]: fieldStr(owner),
      [`${x.name}_inner`]: fieldStr(x.setup.inner),
      [`${x.name}_order_amount`]: fieldStr(own.amount),
      [`${x.name}_price_limit`]: fieldStr(own.priceLimit),
      [`${x.name}_min_fill_size`]: fieldStr(own.minFillSize),
      [`${x.name}_expiry_slot`]: fieldStr(own.expirySlot),
      [`${x.name}_order_id`]: fieldStr(own.orderId),
    });
  }
  const names = ['bid_trade_out', 'bid_change', 'bid_fee', 'ask_trade_out', 'ask_change', 'ask_fee'];
  names.forEach((n, i) => (input[n] = fieldStr(slots[i] as bigint)));
  return {
    ...input,
    market_lo: fieldStr(MARKET.mintLo),
    market_hi: fieldStr(MARKET.mintHi),
    base_mint_lo: fieldStr(BASE.mintLo),
    base_mint_hi: fieldStr(BASE.mintHi),
    quote_mint_lo: fieldStr(QUOTE.mintLo),
    quote_mint_hi: fieldStr(QUOTE.mintHi),
    price_scale: fieldStr(p.priceScale),
    fee_bps: fieldStr(p.feeBps),
    fee_owner_commitment: fieldStr(FEE_OWNER),
    settle_by_slot: fieldStr(p.settleBySlot),
    memo_hash: fieldStr(MEMO_HASH),
    quantity: fieldStr(q),
    price: fieldStr(s.price),
    quote: fieldStr(quote),
    quote_rem: fieldStr(quoteRem),
    bid_fee_amount: fieldStr(bidFee),
    bid_fee_rem: fieldStr(bidFeeRem),
    ask_fee_amount: fieldStr(askFee),
    ask_fee_rem: fieldStr(askFeeRem),
    bid_change_amount: fieldStr(bidChange),
    ask_change_amount: fieldStr(askChange),
  };
}
