/**
 * Where matches leave the matcher. The settlement issue plugs the real pipeline in here; until then
 * `UnwiredSettlement` counts every batch, its orders stay `pending_settlement`, and
 * `/system/status` reports `settlement: not_wired`. A test double may implement this interface in
 * tests only.
 */
import type { SettlementStatusResponse } from '@nightjar/protocol';
import type { Match } from '../book/types.js';
import type { SettleableOrder } from './types.js';

export interface SettlementBatch {
  /** Local to this boot (`/settlement/status/{batch_id}`). */
  batchId: bigint;
  marketId: string;
  symbol: string;
  matches: Match<SettleableOrder>[];
  /** Slot until which the inputs will be locked on chain. */
  lockExpirySlot: bigint;
  createdAtMs: number;
}

export interface SettlementSeam {
  readonly state: 'wired' | 'not_wired' | 'degraded';
  submit(batch: SettlementBatch): void;
  /** Batches not yet settled (bounded telemetry; no order details). */
  pendingBatches(): number;
  /** Matches not yet done or failed. */
  inFlightMatches?(): number;
  /** The status record of a batch in flight or among the last 1,024 terminal ones. */
  status?(batchId: bigint): SettlementStatusResponse | undefined;
  /** `/admin/metrics/settlement` (no amounts, prices or ids). */
  metricsSnapshot?(): Record<string, unknown>;
  /**
   * The order holding this note's lock (the engine's own, until `untilSlot`) left the book
   * unmatched: free the note now rather than at the lock's expiry.
   */
  releaseLock?(nullifier: string, untilSlot: bigint): void;
  /** Settlement totals for `/transparency`. */
  totals?(): { batches: number; confirmed_matches: number; rejected_matches: number };
}

/**
 * Settles nothing: matched orders wait in `pending_settlement`. It keeps only a count, so an
 * unwired venue's memory does not grow with the batches it has matched.
 */
export class UnwiredSettlement implements SettlementSeam {
  readonly state = 'not_wired' as const;
  private count = 0;
  submit(_batch: SettlementBatch): void {
    this.count += 1;
  }
  pendingBatches(): number {
    return this.count;
  }
}
