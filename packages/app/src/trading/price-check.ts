/**
 * The ticket's guard against a mistyped price (14141 for 141): the wallet's own reference prices
 * for the market (its recent fills, the limits of its open orders on the other side), all local,
 * and whether the typed price is far from the nearest of them.
 */
import { formatPrice, parsePrice, type Instrument, type Wallet } from '@nightjar/sdk';

/** A price more than this many percent away from a reference price is "far". */
export const FAR_PRICE_PERCENT = 20;
/** How many of the wallet's latest fills in the market serve as references. */
const RECENT_FILLS = 5;

export type ReferenceSource = 'recent_fill' | 'open_order';

/** One reference price, in price units, and where it comes from. */
export interface ReferencePrice {
  source: ReferenceSource;
  price: bigint;
}

/** The wallet's order states that still hold their limit (resting, or matched and settling). */
const RESTING = new Set(['pending', 'pending_settlement']);

/** The prices of the wallet's latest fills in `symbol`, newest first. */
function recentFillPrices(wallet: Wallet, symbol: string): ReferencePrice[] {
  return [...wallet.fills.values()]
    .filter((f) => f.price !== undefined && f.price > 0n && wallet.orders.get(f.orderId)?.symbol === symbol)
    .sort((a, b) => b.time - a.time)
    .slice(0, RECENT_FILLS)
    .map((f) => ({ source: 'recent_fill' as const, price: f.price! }));
}

/** The limits of the wallet's resting orders in `symbol` on the side opposite to `side`. */
function otherSideLimits(wallet: Wallet, inst: Instrument, side: 'bid' | 'ask'): ReferencePrice[] {
  const out: ReferencePrice[] = [];
  for (const o of wallet.orders.values()) {
    if (o.symbol !== inst.symbol || o.side === side || !RESTING.has(o.status) || !o.ticket) continue;
    try {
      out.push({ source: 'open_order', price: parsePrice(o.ticket.price, inst) });
    } catch {
      // A ticket whose price no longer parses (the market's tick changed) is no reference.
    }
  }
  return out;
}

/** The wallet's reference prices for an order on `side` of `inst`'s market. */
export function referencePrices(wallet: Wallet, inst: Instrument, side: 'bid' | 'ask'): ReferencePrice[] {
  return [...recentFillPrices(wallet, inst.symbol), ...otherSideLimits(wallet, inst, side)];
}

/** `price` lies more than FAR_PRICE_PERCENT away from `ref` (exact, in bigints). */
export function isFar(price: bigint, ref: bigint): boolean {
  const diff = price > ref ? price - ref : ref - price;
  return diff * 100n > ref * BigInt(FAR_PRICE_PERCENT);
}

/** What the preview says of the typed price against the wallet's references. */
export interface PriceCheck {
  far: boolean;
  threshold_percent: number;
  reference_prices: { source: ReferenceSource; price: string }[];
  warning?: string;
}

const SOURCE_WORDS: Record<ReferenceSource, string> = {
  recent_fill: 'your recent fill at',
  open_order: 'your open order on the other side at',
};

/** The typed `price` checked against the wallet's reference prices. */
export function checkPrice(
  price: bigint,
  refs: readonly ReferencePrice[],
  inst: Instrument,
  quoteSym: string,
): PriceCheck {
  // Far from the nearest reference, so prices that moved (fills at 100 and 150) do not make every
  // price look far; a mistyped 14141 for 141 is far from all of them.
  const distance = (r: ReferencePrice) => (price > r.price ? price - r.price : r.price - price);
  const nearest = refs.reduce<ReferencePrice | undefined>(
    (best, r) => (best === undefined || distance(r) < distance(best) ? r : best),
    undefined,
  );
  const named = price > 0n && nearest && isFar(price, nearest.price) ? nearest : undefined;
  return {
    far: named !== undefined,
    threshold_percent: FAR_PRICE_PERCENT,
    reference_prices: refs.map((r) => ({ source: r.source, price: formatPrice(r.price, inst) })),
    ...(named
      ? {
          warning:
            `The price ${formatPrice(price, inst)} ${quoteSym} is more than ${FAR_PRICE_PERCENT}% away from ` +
            `${SOURCE_WORDS[named.source]} ${formatPrice(named.price, inst)} ${quoteSym}. ` +
            'Check it, then confirm that you mean it.',
        }
      : {}),
  };
}
