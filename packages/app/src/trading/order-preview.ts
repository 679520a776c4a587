/** An order ticket checked without a note, a proof or a request: the exact conversion and the venue's rules. */
import {
  formatPrice,
  formatUnits,
  orderTerms,
  parsePrice,
  parseUnits,
  type BuildOrderParameters,
  type Client,
  type Instrument,
  type Wallet,
} from '@nightjar/sdk';
import { feeOn, nominalCost } from '@nightjar/protocol';
import type { ApiError, OrderPreview, OrderRequest } from '../api-types.js';
import { AppError, toAppError } from '../errors.js';
import { backingNote } from './collateral-note.js';
import { checkPrice, referencePrices } from './price-check.js';

type PreviewError = ApiError['error'];

/** The venue's clearing rule, as the ticket states it. */
export const CLEARING_RULE = 'Uniform price per batch: you may fill better than your limit, never worse.';

/** The SDK's order parameters of a ticket. */
export function toParams(req: OrderRequest): BuildOrderParameters {
  return {
    symbol: req.symbol,
    side: req.side,
    type: req.type,
    amount: req.amount,
    price: req.price,
    ...(req.min_fill === undefined ? {} : { minFillSize: req.min_fill }),
    ...(req.expiry_seconds === undefined ? {} : { expiry: { seconds: req.expiry_seconds } }),
    ...(req.prepare_note === undefined ? {} : { prepareNote: req.prepare_note }),
  };
}

/** The two prices on the tick around an off-tick `price`. */
function nearestPrices(price: bigint, inst: Instrument): string[] | undefined {
  if (price % inst.tick_size === 0n) return undefined;
  const below = (price / inst.tick_size) * inst.tick_size;
  return [formatPrice(below, inst), formatPrice(below + inst.tick_size, inst)];
}

/** The collateral side of an order: its mint, decimals and asset symbol. */
function collateralOf(req: OrderRequest, inst: Instrument) {
  const [baseSym = 'base', quoteSym = 'quote'] = inst.symbol.split('-');
  return req.side === 'bid'
    ? { mint: inst.quote_mint, decimals: inst.quote_decimals, asset: quoteSym }
    : { mint: inst.base_mint, decimals: inst.base_decimals, asset: baseSym };
}

/** The collateral an order locks, when the wallet's free notes of it fall short. */
function shortfall(
  wallet: Wallet,
  req: OrderRequest,
  inst: Instrument,
  required: bigint,
): PreviewError | undefined {
  const { mint, decimals, asset } = collateralOf(req, inst);
  const free = wallet.freeNotes(mint).reduce((s, n) => s + n.amount, 0n);
  if (free >= required) return undefined;
  return new AppError(
    400,
    'INSUFFICIENT_NOTES',
    `the order locks ${formatUnits(required, decimals)} ${asset}; the wallet has ${formatUnits(free, decimals)} free`,
    `deposit ${formatUnits(required - free, decimals)} ${asset} more`,
    undefined,
    'POST /api/v1/deposits',
  ).body().error;
}

/** The collateral, fee and note lines of a preview, for an order needing `required`. */
function collateralLines(wallet: Wallet, req: OrderRequest, inst: Instrument, terms: Terms) {
  const { mint, decimals, asset } = collateralOf(req, inst);
  const fee =
    terms.required > 0n ? feeOn(nominalCost(req.side, terms.amount, terms.price, inst), inst.fee_bps) : 0n;
  const line = (v: bigint) => ({ asset, amount: formatUnits(v, decimals), amount_units: v.toString() });
  const note = backingNote(wallet, mint, terms.required, decimals, asset);
  return { collateral: line(terms.required), fee: line(fee), ...(note ? { note } : {}) };
}

interface Terms {
  amount: bigint;
  price: bigint;
  required: bigint;
}

export async function previewOrder(
  client: Client,
  wallet: Wallet,
  inst: Instrument,
  req: OrderRequest,
): Promise<OrderPreview> {
  const errors: PreviewError[] = [];
  const tryIt = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (err) {
      errors.push(toAppError(err).body().error);
      return undefined;
    }
  };
  const amount = tryIt(() => parseUnits(req.amount, inst.base_decimals, 'amount')) ?? 0n;
  const price = tryIt(() => parsePrice(req.price, inst)) ?? 0n;
  const nearest = nearestPrices(price, inst);
  let required = 0n;
  if (errors.length === 0)
    required = (await tryAsync(errors, () => orderTerms(client, toParams(req))))?.required ?? 0n;
  if (errors.length === 0) {
    const short = shortfall(wallet, req, inst, required);
    if (short) errors.push(short);
  }
  const quoteSym = inst.symbol.split('-')[1] ?? 'quote';
  const refs = referencePrices(wallet, inst, req.side);
  return {
    ok: errors.length === 0,
    errors,
    amount_units: amount.toString(),
    price_units: price.toString(),
    ...collateralLines(wallet, req, inst, { amount, price, required }),
    clearing_rule: CLEARING_RULE,
    price_check: checkPrice(price, refs, inst, quoteSym),
    ...(nearest ? { nearest_prices: nearest } : {}),
  };
}

async function tryAsync<T>(errors: PreviewError[], f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (err) {
    errors.push(toAppError(err).body().error);
    return undefined;
  }
}
