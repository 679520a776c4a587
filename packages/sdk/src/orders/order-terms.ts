/** An order's parameters, its terms in atomic units, and the checks a client can make itself. */
import type { Instrument, OrderType, PlaceOrderBody, Side } from '@nightjar/protocol';
import { requiredCollateral } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { registerInstrument } from '../core/utils/asset-registry.js';
import { formatPrice, formatUnits, parsePrice, parseUnits } from '../core/utils/decimal.js';
import type { JoinSplitProgress, JoinSplitReturnType } from '../notes/run-join-split.js';
import type { WalletNote } from '../wallet/wallet.js';
import { checkExpiry, type Expiry } from './expiry.js';
import { NIGHTJAR_ERROR__PARAMETER, NightjarError } from '../core/errors/index.js';

/**
 * What an order does when no free note fits it:
 * - `auto` (default): a free note of exactly the collateral, else the smallest larger one (with
 *   `collateral_amount`); when no single note covers it but up to 4 free notes do together, they
 *   are merged first (one join-split: a note of exactly the collateral, and the remainder).
 * - `exact`: always back the order with a note of exactly the collateral, splitting (or merging)
 *   first when there is none, so the rest of a larger note stays free for other orders.
 * - `off`: never split or merge; `INSUFFICIENT_NOTES` (naming the fix) when no note covers it.
 */
export type NotePreparation = 'auto' | 'exact' | 'off';

/** What to order: amounts and prices in human decimals (exact) or atomic bigints. */
export interface OrderParameters {
  symbol: string;
  side: Side;
  /** Default `limit`. */
  type?: OrderType;
  /** Size in base units: a decimal string in human units (`"1.5"`) or a bigint of atomic units. */
  amount: string | bigint;
  /** Limit price: quote per base as a decimal string (`"150.25"`), or a bigint `price_limit`. An ask may omit it (any price). */
  price?: string | bigint;
  /** Smallest acceptable fill, like `amount`. */
  minFillSize?: string | bigint;
  /** Default 1,000 slots. */
  expiry?: Expiry;
  /** 16-byte hex; random when omitted. */
  orderId?: string;
  /** Back the order with this note (commitment) instead of choosing one. */
  note?: string;
  /**
   * How long to wait for the venue's tree to have a note that would do (a fresh deposit or change
   * note, a split's output), in ms; default 20,000. Then `NOTES_PENDING`.
   */
  noteWaitMs?: number;
  /** Split or merge notes first when none fits (default `auto`; see `NotePreparation`). */
  prepareNote?: NotePreparation;
  /** Told each stage of a split or merge made for this order. */
  onNoteProgress?: (progress: JoinSplitProgress) => void;
}

/** The signed place-order body and the note backing it (reserved until placed). */
export interface PreparedOrder {
  body: PlaceOrderBody;
  note: WalletNote;
  /** The split or merge that made the note, when one was needed (see `prepareNote`). */
  split?: JoinSplitReturnType;
}

/** Options of `prepareOrder`. */
export interface PrepareOptions {
  /** Take the nonce and sign now (default true); placeOrder signs under the send lock instead. */
  sign?: boolean;
  /** The order a modify replaces: its note may back the replacement. */
  replacing?: string;
  /** A note already reserved for this order (by `placeOrders`): back it with that one. */
  held?: WalletNote;
}

/** An order's amounts in atomic units and the collateral it needs. */
export interface OrderTerms {
  inst: Instrument;
  amount: bigint;
  priceLimit: bigint;
  minFill: bigint;
  /** Collateral mint: quote for a bid, base for an ask. */
  mint: string;
  /** Nominal plus fee. */
  required: bigint;
}

/** The base asset's name in messages: the symbol's first part (`SOL` of `SOL-USDC`). */
const baseName = (inst: Instrument) => inst.symbol.split('-')[0] ?? inst.symbol;

/**
 * The venue's order rules a client can check itself, before the 1–3 s of a note split and a
 * proof (the venue would refuse with 1004, 1005, 1009 or 1001): errors in human units that name
 * the fix.
 */
function checkOrderTerms(
  params: OrderParameters,
  inst: Instrument,
  amount: bigint,
  priceLimit: bigint,
  minFill: bigint,
): void {
  const units = (v: bigint) => `${formatUnits(v, inst.base_decimals)} ${baseName(inst)}`;
  if (amount < inst.min_order_size)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `amount ${units(amount)} is below ${inst.symbol}'s minimum order size ${units(inst.min_order_size)}: order at least that`,
    });
  if (params.side === 'bid' && priceLimit === 0n)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: 'a bid needs a price above 0: give `price`',
    });
  if (priceLimit % inst.tick_size !== 0n) {
    const below = (priceLimit / inst.tick_size) * inst.tick_size;
    const quote = inst.symbol.split('-')[1] ?? '';
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail:
        `price ${formatPrice(priceLimit, inst)} ${quote} per ${baseName(inst)} is not a multiple of ${inst.symbol}'s tick ` +
        `${formatPrice(inst.tick_size, inst)} ${quote}: use ${formatPrice(below, inst)} or ${formatPrice(below + inst.tick_size, inst)}`,
    });
  }
  if (minFill > amount)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `minFillSize ${units(minFill)} exceeds the amount ${units(amount)}: lower it`,
    });
}

/** Converts an order's amounts exactly and computes its collateral (`PARAMETER` when they do not convert). */
export async function orderTerms(client: Client, params: OrderParameters): Promise<OrderTerms> {
  const inst = await client.instrument(params.symbol);
  registerInstrument(inst); // errors about its notes speak in its assets' units
  const amount = parseUnits(params.amount, inst.base_decimals, 'amount');
  const priceLimit = params.price === undefined ? 0n : parsePrice(params.price, inst);
  const minFill = params.minFillSize === undefined ? 0n : parseUnits(params.minFillSize, inst.base_decimals);
  checkOrderTerms(params, inst, amount, priceLimit, minFill);
  checkExpiry(client, params.expiry);
  const mint = params.side === 'bid' ? inst.quote_mint : inst.base_mint;
  return {
    inst,
    amount,
    priceLimit,
    minFill,
    mint,
    required: requiredCollateral(params.side, amount, priceLimit, inst),
  };
}
