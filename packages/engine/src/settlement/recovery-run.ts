/**
 * Restart reconciliation, executed (`recovery.ts` decides). The journaled matches are open at once
 * (status record, drain) and stay open until the fence has landed: before that an older
 * transaction may still land, so nothing is judged, and a ledger that refuses, drops or cannot
 * answer is simply tried again.
 */
import type { LedgerClient } from '@nightjar/ledger';
import { liveJobs, openRun, type BatchRun, type JobMachine } from './job.js';
import type { SettlementJournal } from './journal.js';
import type { LedgerIo } from './ledger-io.js';
import type { SettlementMetrics } from './metrics.js';
import type { BatchPhases } from './phases.js';
import { recoveryDecisions, type RecoveryDecision } from './recovery.js';
import { park, type BatchScheduler } from './scheduler.js';
import type { SignerReadiness } from './signer-readiness.js';
import type { JobState } from './types.js';
import { errText, type PipelineLog } from './pipeline-log.js';

export interface RecoveryRunDeps {
  ledger: LedgerClient;
  journal: SettlementJournal;
  log: PipelineLog;
  metrics: SettlementMetrics;
  io: LedgerIo;
  signer: SignerReadiness;
  scheduler: BatchScheduler;
  jobs: JobMachine;
  phases: BatchPhases;
  /** Pause between rounds when the ledger did not answer (default 2 s). */
  parkMs?: number;
  closed(): boolean;
  /** The pipeline's bookkeeping once a run has no live job left. */
  finish(run: BatchRun): void;
}

export class RecoveryRun {
  constructor(private readonly d: RecoveryRunDeps) {}

  async recover(): Promise<void> {
    const { d } = this;
    const open = d.journal.openJobs();
    if (open.length === 0) return;
    d.log.info({ matches: open.length }, 'settlement recovery: reconciling journaled matches');
    const runs = this.reopen(open);
    await d.signer.whenReady();
    while (!d.closed()) {
      try {
        if (!(await this.fence())) continue;
        for (const run of runs) if (liveJobs(run).length > 0) await this.reconcile(run);
        d.log.info({ counters: d.metrics.counters }, 'settlement recovery done');
        return;
      } catch (err) {
        d.log.warn({ err: errText(err) }, 'settlement recovery: the ledger did not answer; retrying');
        await park(d.parkMs ?? 2000);
      }
    }
  }

  /** The journal's open jobs as runs again, one per batch, as journaled. */
  private reopen(open: JobState[]): BatchRun[] {
    const byBatch = new Map<bigint, JobState[]>();
    for (const j of open) byBatch.set(j.batchId, [...(byBatch.get(j.batchId) ?? []), j]);
    return [...byBatch].map(([batchId, jobs]) => {
      const run = openRun(batchId, jobs[0]!.marketId, jobs);
      this.d.scheduler.runs.set(batchId, run);
      return run;
    });
  }

  /**
   * A transaction with a nonce above every journaled one: once it landed, or the signer's nonce
   * passed it (`lost`), no older transaction can land. False only when the engine is closing.
   */
  private async fence(): Promise<boolean> {
    const { d } = this;
    const { tx } = await d.io.submit(
      { name: 'release_lock', args: { nullifier: '00'.repeat(31) + '01' } },
      (tx) => d.journal.write([], [{ tx, batchId: 0n, kind: 'fence' }]),
    );
    let landing = await d.io.awaitLanding(tx);
    while (landing.kind === 'unknown' && !d.closed()) {
      d.log.warn({}, 'settlement recovery: the fence has not landed; matches stay open');
      landing = await d.io.awaitLanding(tx);
    }
    return landing.kind !== 'unknown';
  }

  /** Executes recovery's decisions for a reopened batch (after the fence). */
  private async reconcile(run: BatchRun): Promise<void> {
    let redrive: JobState[] = [];
    for (const decision of await recoveryDecisions(this.d.ledger, run.jobs)) {
      this.d.log.info(
        { batch: run.batchId.toString(), match_idx: decision.job.plan.matchIdx, class: decision.kind },
        'settlement recovery',
      );
      if (this.execute(run, decision)) redrive.push(decision.job);
    }
    // The journaled plan is checked again before it is signed again.
    redrive = this.d.phases.balanced(run, redrive);
    if (redrive.length > 0) await this.d.phases.settleJobs(run, redrive);
    this.d.finish(run);
  }

  /** One recovery decision; true when the job is to be settled again. */
  private execute(run: BatchRun, decision: RecoveryDecision): boolean {
    const { metrics, jobs } = this.d;
    const j = decision.job;
    switch (decision.kind) {
      case 'already_settled':
        metrics.count('recovery_already_settled');
        jobs.confirm(run, j, decision.signature);
        return false;
      case 'redrive':
        // With its journaled memos and proof (the proof binds the memos).
        metrics.count('recovery_redriven');
        return true;
      case 'indeterminate':
        metrics.count('recovery_indeterminate');
        metrics.count('indeterminate_for_operator');
        this.d.log.error(
          { batch: run.batchId.toString(), match_idx: j.plan.matchIdx },
          'settlement recovery: an input was consumed outside this match; operator action needed',
        );
        jobs.indeterminate(run, j);
        return false;
      case 'release':
        metrics.count('recovery_released');
        jobs.rejectBoth(run, j, 'engine_restarted');
        return false;
    }
  }
}
