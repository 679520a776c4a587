/** The per-market order book and batch-auction matcher: pure, synchronous, no I/O. */
export { OrderBook } from './order-book.js';
export { clearingPriceOf, sweepClearing } from './clearing.js';
export {
  compatible,
  DEFAULT_MAX_MATCHES_PER_BATCH,
  DEFAULT_MAX_PROBES_PER_ORDER,
  runAuction,
} from './matcher.js';
export type {
  AuctionOptions,
  AuctionResult,
  BookOrder,
  BookOrderStatus,
  ClearingResult,
  LeavingOrder,
  LeavingReason,
  Match,
} from './types.js';
