/** The order ticket's fields: what the page checks itself, and the request they make. */
import type { MarketView, OrderRequest, OrderType, Side } from '../src/api-types.js';
import type { ErrorBody } from './api.js';
import { formatDuration, isDecimal, isPositiveDecimal, parseDuration } from './format.js';

/** The ticket's Buy / Sell choice; the request says it in the spec's words (bid / ask). */
export type TicketSide = 'buy' | 'sell';
const SIDE_OF: Record<TicketSide, Side> = { buy: 'bid', sell: 'ask' };

export interface Fields {
  market: MarketView | undefined;
  side: TicketSide;
  type: OrderType;
  amount: string;
  price: string;
  minFill: string;
  expiry: string;
}

/** Problems the page can see without asking the app, each with its fix. */
export function validateTicket(f: Fields, submitted: boolean): ErrorBody[] {
  const errors: ErrorBody[] = [];
  const m = f.market;
  if (!m) {
    errors.push({ code: 'NO_MARKET', message: 'No market is selected.', fix: 'Pick a market.' });
    return errors;
  }
  const base = m.base.symbol;
  const quote = m.quote.symbol;
  if (f.amount.trim() === '') {
    if (submitted)
      errors.push({
        code: 'AMOUNT_MISSING',
        message: 'The amount is missing.',
        fix: `Enter how much ${base} to ${f.side === 'buy' ? 'buy' : 'sell'}, at least ${m.min_size} ${base}.`,
      });
  } else if (!isPositiveDecimal(f.amount)) {
    errors.push({
      code: 'AMOUNT_INVALID',
      message: `The amount "${f.amount}" is not a positive number.`,
      fix: `Enter the amount in ${base}, e.g. ${m.min_size}.`,
    });
  }
  if (f.price.trim() === '') {
    if (submitted)
      errors.push({
        code: 'PRICE_MISSING',
        message: 'The price is missing.',
        fix: `Enter the price in ${quote} per ${base}, on a tick of ${m.tick_size}.`,
      });
  } else if (!isPositiveDecimal(f.price)) {
    errors.push({
      code: 'PRICE_INVALID',
      message: `The price "${f.price}" is not a positive number.`,
      fix: `Enter the price in ${quote} per ${base}, e.g. 100.`,
    });
  }
  if (f.minFill.trim() !== '') {
    if (!isDecimal(f.minFill))
      errors.push({
        code: 'MIN_FILL_INVALID',
        message: `The minimum fill "${f.minFill}" is not a number.`,
        fix: `Enter a minimum fill in ${base} no larger than the amount, or leave it empty.`,
      });
    else if (isPositiveDecimal(f.amount) && Number(f.minFill) > Number(f.amount))
      errors.push({
        code: 'MIN_FILL_TOO_LARGE',
        message: `The minimum fill ${f.minFill} ${base} is larger than the amount ${f.amount} ${base}.`,
        fix: `Lower the minimum fill to at most ${f.amount} ${base}.`,
      });
  }
  if (f.type === 'limit' && f.expiry.trim() !== '') {
    const s = parseDuration(f.expiry);
    const bounds = `between ${formatDuration(m.min_expiry_s)} and ${formatDuration(m.max_expiry_s)}`;
    if (s === undefined)
      errors.push({
        code: 'EXPIRY_INVALID',
        message: `The expiry "${f.expiry}" is not a duration.`,
        fix: `Write it like 30s, 5m or 1h, ${bounds}.`,
      });
    else if (s < m.min_expiry_s || s > m.max_expiry_s)
      errors.push({
        code: 'EXPIRY_OUT_OF_RANGE',
        message: `The expiry ${formatDuration(s)} is outside the venue's bounds.`,
        fix: `Choose an expiry ${bounds}.`,
      });
  }
  return errors;
}

export function requestOf(f: Fields, clientRef?: string): OrderRequest {
  const expiry = f.type === 'limit' ? parseDuration(f.expiry) : undefined;
  return {
    symbol: f.market?.symbol ?? '',
    side: SIDE_OF[f.side],
    type: f.type,
    amount: f.amount.trim(),
    price: f.price.trim(),
    ...(f.minFill.trim() ? { min_fill: f.minFill.trim() } : {}),
    ...(expiry !== undefined ? { expiry_seconds: expiry } : {}),
    ...(clientRef ? { client_ref: clientRef } : {}),
  };
}
