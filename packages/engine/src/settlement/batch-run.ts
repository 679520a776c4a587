/**
 * A submitted batch made a run: each match planned (six outputs, lock entries) and its fill memos
 * encrypted, before anything is journaled. A match that cannot be planned (a bug, a market gone)
 * still gets a job, with a minimal plan, so it can be failed and reported like any other.
 */
import type { Instrument } from '@nightjar/protocol';
import { newJob, openRun, type BatchRun } from './job.js';
import { fillMemos } from './memo.js';
import { minimalPlan, planMatch } from './plan.js';
import { errText, type PipelineLog } from './pipeline-log.js';
import type { JobState, SettlementBatch } from './types.js';

export interface BatchRunContext {
  instrument: Instrument;
  feeOwnerCommitment: string;
  slot: bigint;
  nowMs: number;
  log: PipelineLog;
}

export function planBatchRun(
  batch: SettlementBatch,
  c: BatchRunContext,
): { run: BatchRun; unplannable: JobState[] } {
  const run = openRun(batch.batchId, batch.marketId, []);
  const unplannable: JobState[] = [];
  batch.matches.forEach((m, idx) => {
    let job: JobState;
    try {
      const plan = planMatch(m, idx, {
        instrument: c.instrument,
        feeOwnerCommitment: c.feeOwnerCommitment,
        slot: c.slot,
        lockExpirySlot: batch.lockExpirySlot,
      });
      job = newJob(batch, plan, c.nowMs);
      // Encrypted before proving: VALID_MATCH binds the memos' hash, so they never change after.
      job.memos = fillMemos(job);
    } catch (err) {
      c.log.error({ err: errText(err) }, 'settlement plan failed');
      job = newJob(batch, minimalPlan(m, idx, batch.lockExpirySlot), c.nowMs);
      unplannable.push(job);
    }
    run.jobs.push(job);
    run.stageSince.set(idx, performance.now());
  });
  return { run, unplannable };
}
