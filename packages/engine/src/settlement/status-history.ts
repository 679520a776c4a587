/**
 * The status record of `/settlement/status/{batch_id}`: of a batch in flight (its live jobs) or
 * among the last 1,024 terminal ones (kept here, and reloaded from the journal at start).
 */
import type { SettlementStatusResponse } from '@nightjar/protocol';
import type { JobState, MatchPlan } from './types.js';

/** Terminal batches whose status record is kept. */
export const RECENT_BATCHES = 1024;

/**
 * What is kept of a finished match (in memory and in the journal): its ids, stage, outcome and
 * signatures; no note, opening, amount, order or account.
 */
export type FinishedJob = Pick<
  JobState,
  | 'batchId'
  | 'marketId'
  | 'stage'
  | 'outcome'
  | 'reason'
  | 'createdAtMs'
  | 'updatedAtMs'
  | 'confirmedLockSignature'
  | 'confirmedSignature'
  | 'releasesOwed'
> & { plan: Pick<MatchPlan, 'matchIdx' | 'matchId'> };

export function finishedJob(j: FinishedJob): FinishedJob {
  return {
    batchId: j.batchId,
    marketId: j.marketId,
    plan: { matchIdx: j.plan.matchIdx, matchId: j.plan.matchId },
    stage: j.stage,
    outcome: j.outcome,
    ...(j.reason ? { reason: j.reason } : {}),
    createdAtMs: j.createdAtMs,
    updatedAtMs: j.updatedAtMs,
    ...(j.confirmedLockSignature ? { confirmedLockSignature: j.confirmedLockSignature } : {}),
    ...(j.confirmedSignature ? { confirmedSignature: j.confirmedSignature } : {}),
    // Nullifiers and lock ends (public on chain), never an opening: what a restart still owes.
    ...(j.releasesOwed?.length ? { releasesOwed: j.releasesOwed } : {}),
  };
}

export interface BatchRecord {
  marketId: string;
  jobs: FinishedJob[];
}

export class StatusHistory {
  private readonly recent = new Map<bigint, BatchRecord>();

  /** Records a terminal job (only its {@link FinishedJob} part); the oldest batch goes past {@link RECENT_BATCHES}. */
  remember(batchId: bigint, marketId: string, j: FinishedJob): void {
    const kept = finishedJob(j);
    const rec = this.recent.get(batchId);
    if (rec) {
      const i = rec.jobs.findIndex((k) => k.plan.matchIdx === kept.plan.matchIdx);
      if (i >= 0) rec.jobs[i] = kept;
      else rec.jobs.push(kept);
      return;
    }
    this.recent.set(batchId, { marketId, jobs: [kept] });
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
