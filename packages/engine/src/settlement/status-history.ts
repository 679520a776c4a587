/**
 * The status record of `/settlement/status/{batch_id}`: of a batch in flight (its live jobs) or
 * among the last 1,024 terminal ones (kept here, and reloaded from the journal at start).
 */
import type { SettlementStatusResponse } from '@nightjar/protocol';
import type { JobState } from './types.js';

/** Terminal batches whose status record is kept. */
export const RECENT_BATCHES = 1024;

export interface BatchRecord {
  marketId: string;
  jobs: JobState[];
}

export class StatusHistory {
  private readonly recent = new Map<bigint, BatchRecord>();

  /** Records a terminal job; the oldest batch goes past {@link RECENT_BATCHES}. */
  remember(batchId: bigint, marketId: string, j: JobState): void {
    const rec = this.recent.get(batchId);
    if (rec) {
      if (!rec.jobs.includes(j)) rec.jobs.push(j);
      return;
    }
    this.recent.set(batchId, { marketId, jobs: [j] });
    while (this.recent.size > RECENT_BATCHES) this.recent.delete(this.recent.keys().next().value as bigint);
  }

  get(batchId: bigint): BatchRecord | undefined {
    return this.recent.get(batchId);
  }
}

/** A batch's status record (no amounts, notes or accounts). */
export function statusRecord(batchId: bigint, rec: BatchRecord): SettlementStatusResponse {
  return {
    batch_id: batchId,
    market_id: rec.marketId,
    jobs: rec.jobs.map((j) => ({
      match_idx: j.plan.matchIdx,
      match_id: j.plan.matchId,
      stage: j.stage,
      outcome: j.outcome,
      created_at_ms: BigInt(j.createdAtMs),
      updated_at_ms: BigInt(j.updatedAtMs),
      ...(j.confirmedLockSignature ? { lock_signatures: [j.confirmedLockSignature] } : {}),
      ...(j.confirmedSignature ? { settle_signature: j.confirmedSignature } : {}),
      ...(j.reason ? { reason: j.reason } : {}),
    })),
  };
}
