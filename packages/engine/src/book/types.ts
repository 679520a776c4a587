/**
 * Types shared by the per-market order book, the clearing-price sweep and the batch-auction
 * matcher (DESIGN.md sections 4 and 5). Pure data: no I/O, bigint for every amount and price.
 */
import type { OrderType, Side } from '@nightjar/protocol';

/** `pending` = resting and matchable; `pending_settlement` = reserved by a match, not matchable. */
export type BookOrderStatus = 'pending' | 'pending_settlement';

/**
 * What the book needs to know about one order. A plain object: the engine may pass a subtype
 * with its own extra fields (`OrderBook<EngineOrder>`), and gets the same objects back in
 * matches and results. The book only ever writes `status` (reserve/release) and `amount`
 * (release with a residual); every other field must stay unchanged while the order is in the
 * book, except fields the book does not read (`noteAmount`, `accountId` and the engine's own).
 */
export interface BookOrder {
  /** Intake sequence number: unique per book, increasing with acceptance. */
  seq: number;
  /** 16-byte order id, 32 hex characters. The book's key. */
  orderId: string;
  accountId: string;
  /** Ed25519 trading key (hex). Equal keys never trade with each other. */
  tradingKey: string;
  /** The collateral note's owner commitment (hex). Equal owners never trade with each other. */
  ownerCommitment: string;
  side: Side;
  orderType: OrderType;
  /** Current remaining size in base atomic units (> 0). */
  amount: bigint;
  /** Quote atomic units per `price_scale` base units. > 0 for a bid; 0 allowed for an ask (any price). */
  priceLimit: bigint;
  /** Smallest acceptable fill (0 = any). */
  minFillSize: bigint;
  /** Chain slot at which the order expires. */
  expirySlot: bigint;
  /** Slot stamped at arrival, frozen: the second priority key. */
  arrivalSlot: bigint;
  /**
   * Number of the auction tick that first sees the order (the `tick` of the next `runAuction`
   * call after it was booked). An `ioc`/`fok` order is judged at the first auction whose tick is
   * ≥ this value and leaves the book after it; an auction with a lower tick ignores it.
   */
  arrivalTick: number;
  /** Value of the collateral note (informational for the book). */
  noteAmount: bigint;
  status: BookOrderStatus;
}

/** One fill: base quantity `quantity` from the ask to the bid at the uniform clearing `price`. */
export interface Match<O extends BookOrder = BookOrder> {
  matchId: bigint;
  bid: O;
  ask: O;
  /** Base atomic units: min(bid.amount, ask.amount) at match time. */
  quantity: bigint;
  /** The clearing price of the auction. */
  price: bigint;
  /** floor(quantity × price / price_scale), quote atomic units the seller receives. */
  quote: bigint;
  /** floor(quote × fee_bps / 10000), quote units the buyer pays on top of `quote`. */
  buyerFee: bigint;
  /** floor(quantity × fee_bps / 10000), base units the seller pays on top of `quantity`. */
  sellerFee: bigint;
}

export type LeavingReason = 'ioc_unfilled' | 'fok_unfilled';

/**
 * An `ioc`/`fok` order that leaves the book after its arrival batch. Without `match` it got no
 * fill and runAuction has already removed it from the book. With `match` (ioc only) it got a
 * partial fill: it stays in the book reserved for that match, and its remainder
 * (`order.amount - match.quantity`) must not rest: once settlement is done the engine removes it
 * instead of releasing it.
 */
export interface LeavingOrder<O extends BookOrder = BookOrder> {
  order: O;
  reason: LeavingReason;
  match?: Match<O>;
}

export interface AuctionOptions {
  /** Current chain slot (expiry and settlement-buffer eligibility). */
  slot: bigint;
  /** Number of this auction tick (ioc/fok arrival batches; see `BookOrder.arrivalTick`). */
  tick: number;
  priceScale: bigint;
  feeBps: bigint;
  /** An order is matchable iff expirySlot > slot + settlementBufferSlots. */
  settlementBufferSlots: bigint;
  /** Default 16 (DESIGN.md section 5). */
  maxMatchesPerBatch?: number;
  /**
   * Match ids: either the first id to use (ids are then consecutive, and the result's
   * `nextMatchId` is the one after the last used) or a function called once per match.
   */
  nextMatchId: bigint | (() => bigint);
  /**
   * Bound on how many counterparties one order may try in one auction when pairs are skipped
   * (min_fill_size, self-trade, fok). Keeps a tick's work linear in the crossed region whatever
   * the book holds. Default 64.
   */
  maxProbesPerOrder?: number;
  /**
   * Whether this order takes part in this auction (default: every eligible one); it must give the
   * same answer for an order throughout one auction. One it refuses neither trades nor counts in
   * the clearing price, and keeps its place for a later auction (an ioc/fok still leaves after
   * its arrival auction).
   */
  admits?(order: BookOrder): boolean;
}

export interface ClearingResult {
  /** The uniform clearing price, or undefined when nothing can trade. */
  price: bigint | undefined;
  /** Executable volume at `price`: min(demand, supply); 0n when there is no price. */
  volume: bigint;
  /** Eligible bid volume with limit ≥ price. */
  demand: bigint;
  /** Eligible ask volume with limit ≤ price (asks at 0 included). */
  supply: bigint;
}

export interface AuctionResult<O extends BookOrder = BookOrder> {
  clearingPrice: bigint | undefined;
  /** Executable volume at the clearing price; the matches' quantities never sum above it. */
  executableVolume: bigint;
  /** In allocation order (bid priority). */
  matches: Match<O>[];
  /** `matches` cut into consecutive settlement batches of at most `maxMatchesPerBatch`. */
  batches: Match<O>[][];
  leaving: LeavingOrder<O>[];
  /** With a bigint `nextMatchId` option: the next unused id. Otherwise undefined. */
  nextMatchId: bigint | undefined;
}
