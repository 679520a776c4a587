/** Order economics (DESIGN.md section 4). BigInt only: never floating point. */
import type { Side } from './bodies.js';
import type { Instrument } from './instrument.js';

/** The instrument fields the economics read. */
export type FeeSchedule = Pick<Instrument, 'price_scale' | 'fee_bps'>;

const BPS = 10_000n;

/** Nominal cost of an order in its collateral mint: quote for a bid, base for an ask. */
export function nominalCost(side: Side, amount: bigint, priceLimit: bigint, market: FeeSchedule): bigint {
  return side === 'bid' ? (amount * priceLimit) / market.price_scale : amount;
}

export function feeOn(value: bigint, feeBps: bigint): bigint {
  return (value * feeBps) / BPS;
}

/** Collateral the note must carry: max(nominal + fee, 1). May exceed u64 (then no note can cover it). */
export function requiredCollateral(
  side: Side,
  amount: bigint,
  priceLimit: bigint,
  market: FeeSchedule,
): bigint {
  const nominal = nominalCost(side, amount, priceLimit, market);
  const total = nominal + feeOn(nominal, market.fee_bps);
  return total > 1n ? total : 1n;
}

/** Quote owed for base quantity `q` at clearing price `p`. */
export function quoteForFill(q: bigint, p: bigint, priceScale: bigint): bigint {
  return (q * p) / priceScale;
}
