/**
 * Per-market figures from the wallet's own fills (private: computed here, from the fill memos the
 * wallet decrypted; nothing is asked of the venue). Method: average cost. A buy adds to the
 * position at its price; a sell closes against the average cost of the position (a short works
 * the other way round), and realised P&L is (closing price − average cost) × size closed, less
 * every fee paid. A buy's fee is in the quote asset; a sell's fee is in the base asset and is
 * valued at that fill's price. A fill whose memo has not arrived (no price yet) and a fill whose
 * settlement failed count in no figure.
 */
import type { Instrument, TrackedFill, TrackedOrder } from '@nightjar/sdk';
import { add, div, formatRatio, mul, ratio, sub, type Ratio } from './ratio.js';

/** One fill with its order and market, as `summarizeFills` takes them. */
export interface OwnFill {
  fill: TrackedFill;
  order: TrackedOrder;
  inst: Instrument;
}

/** The figures of one market, in human units (decimal strings). */
export interface MarketFillFigures {
  /** The market. */
  symbol: string;
  base: string;
  quote: string;
  /** Fills counted (memo arrived, settlement not failed). */
  fills: number;
  /** Fills heard of whose memo (price, size, fee) has not arrived yet. */
  awaiting_memo: number;
  bought: string;
  sold: string;
  /** Size-weighted average price of the buys (quote per base); empty without one. */
  avg_buy_price: string;
  avg_sell_price: string;
  /** Fees paid on buys, in the quote asset, and on sells, in the base asset. */
  fees_quote: string;
  fees_base: string;
  /** Net base position from these fills (negative: short). */
  position: string;
  /** Average cost of that position (quote per base); empty when flat. */
  avg_cost: string;
  /** Realised P&L in the quote asset, net of fees (truncated to the quote asset's smallest unit). */
  realised_pnl: string;
}

const PRICE_PLACES = 18;
const sign = (v: bigint) => (v < 0n ? -1n : v > 0n ? 1n : 0n);
const abs = (v: bigint) => (v < 0n ? -v : v);

/** The running figures of one market; values in "scaled quote" (quote atomic × price_scale). */
interface Book {
  inst: Instrument;
  fills: number;
  waiting: number;
  bought: bigint;
  boughtValue: bigint;
  sold: bigint;
  soldValue: bigint;
  feesQuote: bigint;
  feesBase: bigint;
  position: bigint;
  cost: Ratio;
  realised: Ratio;
}

const newBook = (inst: Instrument): Book => ({
  inst,
  fills: 0,
  waiting: 0,
  bought: 0n,
  boughtValue: 0n,
  sold: 0n,
  soldValue: 0n,
  feesQuote: 0n,
  feesBase: 0n,
  position: 0n,
  cost: ratio(0n),
  realised: ratio(0n),
});

/** Moves the position by `delta` base units at `price` (average cost), realising what it closes. */
function trade(b: Book, delta: bigint, price: bigint): void {
  let rest = delta;
  if (b.position !== 0n && sign(b.position) !== sign(delta)) {
    // The part that closes: as much of `delta` as the position holds, never more.
    const closed = abs(delta) < abs(b.position) ? delta : -b.position;
    // Selling out of a long (closed < 0) realises |closed| × (price − average cost); a short, the reverse.
    const avg = div(b.cost, ratio(b.position));
    b.realised = add(b.realised, mul(ratio(-closed), sub(ratio(price), avg)));
    b.cost = mul(b.cost, ratio(b.position + closed, b.position));
    b.position += closed;
    rest -= closed;
  }
  if (rest !== 0n) {
    b.position += rest;
    b.cost = add(b.cost, ratio(rest * price));
  }
}

function record(b: Book, f: OwnFill, size: bigint, price: bigint): void {
  const fee = f.fill.fee ?? 0n;
  b.fills += 1;
  if (f.order.side === 'bid') {
    b.bought += size;
    b.boughtValue += size * price;
    b.feesQuote += fee;
    b.realised = sub(b.realised, ratio(fee * b.inst.price_scale));
    trade(b, size, price);
  } else {
    b.sold += size;
    b.soldValue += size * price;
    b.feesBase += fee;
    b.realised = sub(b.realised, ratio(fee * price));
    trade(b, -size, price);
  }
}

/** A price in price-limit units (quote atomic per price_scale base atomic) as a human price. */
function humanPrice(p: Ratio, inst: Instrument): string {
  const scale = ratio(
    10n ** BigInt(inst.base_decimals),
    inst.price_scale * 10n ** BigInt(inst.quote_decimals),
  );
  return formatRatio(mul(p, scale), PRICE_PLACES);
}

const units = (v: bigint | Ratio, decimals: number) =>
  formatRatio(
    typeof v === 'bigint' ? ratio(v, 10n ** BigInt(decimals)) : div(v, ratio(10n ** BigInt(decimals))),
    decimals,
  );

function figures(symbol: string, b: Book): MarketFillFigures {
  const { inst } = b;
  const [base = 'base', quote = 'quote'] = symbol.split('-');
  const avg = (value: bigint, size: bigint) => (size === 0n ? '' : humanPrice(ratio(value, size), inst));
  return {
    symbol,
    base,
    quote,
    fills: b.fills,
    awaiting_memo: b.waiting,
    bought: units(b.bought, inst.base_decimals),
    sold: units(b.sold, inst.base_decimals),
    avg_buy_price: avg(b.boughtValue, b.bought),
    avg_sell_price: avg(b.soldValue, b.sold),
    fees_quote: units(b.feesQuote, inst.quote_decimals),
    fees_base: units(b.feesBase, inst.base_decimals),
    position: units(b.position, inst.base_decimals),
    avg_cost: b.position === 0n ? '' : humanPrice(div(b.cost, ratio(b.position)), inst),
    realised_pnl: units(div(b.realised, ratio(inst.price_scale)), inst.quote_decimals),
  };
}

/** The figures of every market the fills touch, by market name; fills taken in time order. */
export function summarizeFills(fills: readonly OwnFill[]): MarketFillFigures[] {
  const books = new Map<string, Book>();
  const ordered = [...fills].sort((a, b) => a.fill.time - b.fill.time);
  for (const f of ordered) {
    if (f.fill.settlement.outcome === 'failed') continue;
    let book = books.get(f.order.symbol);
    if (!book) books.set(f.order.symbol, (book = newBook(f.inst)));
    const { size, price } = f.fill;
    if (size === undefined || price === undefined) book.waiting += 1;
    else record(book, f, size, price);
  }
  return [...books.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([m, b]) => figures(m, b));
}
