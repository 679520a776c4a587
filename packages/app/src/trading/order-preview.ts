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
import type { ApiError, OrderPreview, OrderRequest } from '../api-types.js';
import { toAppError } from '../errors.js';

type PreviewError = ApiError['error'];

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
  };
}

/** The two prices on the tick around an off-tick `price`. */
function nearestPrices(price: bigint, inst: Instrument): string[] | undefined {
  if (price % inst.tick_size === 0n) return undefined;
  const below = (price / inst.tick_size) * inst.tick_size;
  return [formatPrice(below, inst), formatPrice(below + inst.tick_size, inst)];
}

/** The collateral an order locks, when the wallet's free notes of it fall short. */
function shortfall(
  wallet: Wallet,
  req: OrderRequest,
  inst: Instrument,
  required: bigint,
): PreviewError | undefined {
  const [baseSym = 'base', quoteSym = 'quote'] = inst.symbol.split('-');
  const [mint, decimals, sym] =
    req.side === 'bid'
      ? [inst.quote_mint, inst.quote_decimals, quoteSym]
      : [inst.base_mint, inst.base_decimals, baseSym];
  const free = wallet.freeNotes(mint).reduce((s, n) => s + n.amount, 0n);
  if (free >= required) return undefined;
  return {
    code: 'INSUFFICIENT_NOTES',
    message: `the order locks ${formatUnits(required, decimals)} ${sym}; the wallet has ${formatUnits(free, decimals)} free`,
    fix: `deposit ${formatUnits(required - free, decimals)} ${sym} more (POST /api/v1/deposits)`,
  };
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
  const [baseSym = 'base', quoteSym = 'quote'] = inst.symbol.split('-');
  return {
    ok: errors.length === 0,
    errors,
    amount_units: amount.toString(),
    price_units: price.toString(),
    collateral: {
      asset: req.side === 'bid' ? quoteSym : baseSym,
      amount: formatUnits(required, req.side === 'bid' ? inst.quote_decimals : inst.base_decimals),
      amount_units: required.toString(),
    },
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
