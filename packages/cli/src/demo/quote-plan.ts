/**
 * What a demo trader does next, from what it holds (pure: no I/O, so tests drive it with made-up
 * wallets). Each round quotes a small two-sided ladder around the reference price:
 *
 * - levels go to the sides in proportion to the free value each holds (valued at the reference
 *   price), at least one a side while it can back one, so a trader that has sold its base still
 *   keeps a few asks resting instead of only bids;
 * - every level is sized to what the side's free notes can back (largest size first, smaller when
 *   the notes fall short), so a leftover that cannot cover a full order (a 0.999 SOL change note
 *   against 1 SOL plus the fee) still quotes a smaller one, and nothing is placed that no note,
 *   split or merge could back;
 * - a side whose every note, free or tied up in orders, cannot back the smallest order is refilled
 *   from the faucet;
 * - live orders are capped, and so are the notes backing them;
 * - a trader with no crossing order alive places one (`RoundInput.crossing`): even traders a bid
 *   above the reference price, odd ones an ask below it, so there is always a pair about to trade
 *   and an ask a newcomer's bid near the price can take.
 */
import { requiredCollateral, type Instrument } from '@nightjar/protocol';
import { parsePrice, parseUnits } from '@nightjar/sdk';

export type Side = 'bid' | 'ask';

/** The demo's quoting parameters. */
export const QUOTING = {
  /** Orders placed per round at most (fewer when live orders near the cap). */
  levelsPerRound: 4,
  maxLevelsPerSide: 3,
  /** Live orders (resting or settling) per trader at most. */
  maxLiveOrders: 8,
  /** Free notes of one mint above which the smallest are merged even when none is dust. */
  maxFreeNotes: 10,
  /**
   * Order sizes in base units: every level takes the largest its notes can back, so while a
   * trader holds enough, one of its orders fills a newcomer's 1-SOL order whole (a smaller one
   * fills it in two auctions, the second after the change note is final).
   */
  sizes: ['1', '0.75', '0.5', '0.25'],
  /** Distance between levels, and from the ladder's centre to its best bid and best ask. */
  levelStep: 0.25,
  halfSpread: 0.1,
  /**
   * Each round centres its ladder up to this far from the reference price, so two traders' best
   * levels cross whenever their centres are more than two half-spreads apart.
   */
  maxSkew: 0.4,
  /** Orders expire after this (longer when proofs are slow, see `lifetimeSeconds`) and are quoted anew. */
  expirySeconds: 30,
  /** The venue's longest order lifetime (4,500 slots of 400 ms). */
  maxExpirySeconds: 1800,
} as const;

/** A free note as the planner sees it. */
export interface FreeNote {
  commitment: string;
  amount: bigint;
}

/** One side's collateral: quote notes for bids, base notes for asks. */
export interface SideHoldings {
  /** Free notes, smallest first (as `wallet.freeNotes` lists them). */
  free: readonly FreeNote[];
  /** Value backing live orders, settling, or not usable yet: it is not lost, only busy. */
  tied: bigint;
}

export interface RoundInput {
  market: Instrument;
  /** Reference price, quote per base. */
  mid: number;
  bid: SideHoldings;
  ask: SideHoldings;
  /** The trader's live orders now. */
  liveOrders: number;
  /**
   * A round with one order on this side crossing the reference price, on the largest note as it
   * is (no split to wait for), so a fill comes seconds later; the other side's ladder is passive.
   * The demo asks for it in a trader's first round and whenever its last crossing order is gone.
   */
  crossing?: Side;
  /** Orders this round at most (fewer when proofs are slow); default `QUOTING.levelsPerRound`. */
  levels?: number;
  /** Uniform draws in [0, 1): Math.random in the demo, fixed in tests. */
  random: () => number;
}

export interface PlannedOrder {
  side: Side;
  /** Base atomic units. */
  amount: bigint;
  /** `price_limit`, a multiple of the tick. */
  price: bigint;
  /** Collateral it needs (nominal plus fee). */
  required: bigint;
  /** The note to back it with (the crossing order); otherwise `placeOrders` chooses or splits. */
  note?: string;
  /** The round's crossing order. */
  crossing?: true;
}

export interface RoundPlan {
  orders: PlannedOrder[];
  /** Sides that cannot back even the smallest order, counting their busy value: deposit more. */
  refill: Side[];
}

/** A decimal price as a `price_limit`, rounded down to the tick. */
export function priceLimit(price: number, market: Instrument): bigint {
  const raw = parsePrice(price.toFixed(2), market);
  const tick = market.tick_size > 0n ? market.tick_size : 1n;
  return (raw / tick) * tick;
}

const sizeUnits = (size: string, market: Instrument) => parseUnits(size, market.base_decimals);

/** Collateral of the smallest order the demo places, at price `mid`: less is dust to the trader. */
export function smallestRequired(side: Side, market: Instrument, mid: number): bigint {
  const smallest = QUOTING.sizes[QUOTING.sizes.length - 1]!;
  return requiredCollateral(side, sizeUnits(smallest, market), priceLimit(mid, market), market);
}

const total = (notes: readonly FreeNote[]) => notes.reduce((s, n) => s + n.amount, 0n);

/**
 * Takes `need` from `pieces` the way `placeOrders` funds an order: the smallest piece covering it
 * (a note of its own, or a split whose remainder stays free), else the largest pieces merged, up
 * to 4, until they cover it. False, leaving `pieces` alone, when neither does.
 */
function take(pieces: bigint[], need: bigint): boolean {
  pieces.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const one = pieces.findIndex((p) => p >= need);
  const used = one >= 0 ? [one] : [];
  let sum = one >= 0 ? pieces[one]! : 0n;
  for (let k = pieces.length - 1; one < 0 && k >= 0 && used.length < 4 && sum < need; k--) {
    sum += pieces[k]!;
    used.push(k);
  }
  if (sum < need) return false;
  for (const k of used) pieces.splice(k, 1); // merged ones from the end: the indices stay valid
  if (sum > need) pieces.push(sum - need);
  return true;
}

/** How many of `levels` go to each side: in proportion to free value, one a side at least. */
export function levelSplit(levels: number, bidValue: number, askValue: number): Record<Side, number> {
  if (levels <= 0) return { bid: 0, ask: 0 };
  const share = bidValue + askValue > 0 ? askValue / (bidValue + askValue) : 0.5;
  const cap = QUOTING.maxLevelsPerSide;
  if (levels === 1) return share > 0.5 ? { bid: 0, ask: 1 } : { bid: 1, ask: 0 };
  const ask = Math.min(cap, levels - 1, Math.max(1, Math.round(levels * share)));
  return { bid: Math.min(cap, levels - ask), ask };
}

/** The price of a side's level `level` (0 the best) in a ladder centred at `centre`. */
function levelPrice(side: Side, centre: number, level: number): number {
  const away = QUOTING.halfSpread + level * QUOTING.levelStep;
  return side === 'bid' ? centre - away : centre + away;
}

/**
 * Sizes `count` levels of one side from its free notes, best level first: each the largest size
 * the notes left can back.
 */
function sideOrders(
  side: Side,
  count: number,
  centre: number,
  holdings: SideHoldings,
  market: Instrument,
): PlannedOrder[] {
  const pieces = holdings.free.map((n) => n.amount);
  const out: PlannedOrder[] = [];
  for (let level = 0; level < count; level++) {
    const price = priceLimit(levelPrice(side, centre, level), market);
    for (const size of QUOTING.sizes) {
      const amount = sizeUnits(size, market);
      const required = requiredCollateral(side, amount, price, market);
      if (take(pieces, required)) {
        out.push({ side, amount, price, required });
        break;
      }
    }
  }
  return out;
}

/** The crossing order: crossing by the ladder's skew less the half-spread, on the largest note. */
function crossingOrder(side: Side, centre: number, holdings: SideHoldings, market: Instrument) {
  const note = holdings.free[holdings.free.length - 1];
  if (!note) return undefined;
  const price = priceLimit(levelPrice(side, centre, 0), market);
  for (const size of QUOTING.sizes) {
    const amount = sizeUnits(size, market);
    const required = requiredCollateral(side, amount, price, market);
    if (required <= note.amount)
      return { side, amount, price, required, note: note.commitment, crossing: true as const };
  }
  return undefined;
}

/** The round's orders and refills (see the module comment). */
export function planRound(input: RoundInput): RoundPlan {
  const { market, mid } = input;
  const refill = (['bid', 'ask'] as const).filter(
    (side) => total(input[side].free) + input[side].tied < smallestRequired(side, market, mid),
  );
  const levels = Math.min(input.levels ?? QUOTING.levelsPerRound, QUOTING.maxLiveOrders - input.liveOrders);
  if (levels <= 0) return { orders: [], refill };

  const skew =
    input.crossing === 'bid'
      ? QUOTING.maxSkew
      : input.crossing === 'ask'
        ? -QUOTING.maxSkew
        : (input.random() * 2 - 1) * QUOTING.maxSkew;
  const centre = mid + skew;

  if (input.crossing) {
    const other: Side = input.crossing === 'bid' ? 'ask' : 'bid';
    const first = crossingOrder(input.crossing, centre, input[input.crossing], market);
    const rest = Math.min(QUOTING.maxLevelsPerSide, levels - (first ? 1 : 0));
    return {
      orders: [...(first ? [first] : []), ...sideOrders(other, rest, centre, input[other], market)],
      refill,
    };
  }

  const scale = (n: bigint, decimals: number) => Number(n) / 10 ** decimals;
  const bidValue = scale(total(input.bid.free), market.quote_decimals);
  const askValue = scale(total(input.ask.free), market.base_decimals) * mid;
  const split = levelSplit(levels, bidValue, askValue);
  return {
    orders: [
      ...sideOrders('bid', split.bid, centre, input.bid, market),
      ...sideOrders('ask', split.ask, centre, input.ask, market),
    ],
    refill,
  };
}

/**
 * Which of `candidates` (`mergeCandidates`: up to 4 of the smallest free notes) to merge: those
 * too small to back the smallest order when there are 3 or more of them, or all of them when the
 * mint has more free notes than `QUOTING.maxFreeNotes`; else none.
 */
export function notesToMerge(
  candidates: readonly FreeNote[],
  dustBelow: bigint,
  freeCount: number,
): string[] {
  const dust = candidates.filter((n) => n.amount < dustBelow);
  if (dust.length >= 3) return dust.map((n) => n.commitment);
  if (freeCount > QUOTING.maxFreeNotes && candidates.length >= 2) return candidates.map((n) => n.commitment);
  return [];
}
