/**
 * A match's job as a state machine: queued → locking_notes → proving → verifying → settling →
 * closing → done, or failed from any of them. Every transition is timed per stage (metrics) and
 * journaled by the machine itself, in the same step (`enter`, and each terminal transition); a
 * terminal one tells the orders (`OrderEffects`, given at construction) and counts the outcome. An
 * undecided transaction makes its jobs `ambiguous` (journaled at once) without changing their stage.
 */
import type { SettlementStage } from '@nightjar/protocol';
import type { SettlementJournal } from './journal.js';
import type { SettlementMetrics } from './metrics.js';
import type { ProofTask } from './proving.js';
import {
  TERMINAL_STAGES,
  type JobState,
  type MatchPlan,
  type OrderEffects,
  type OwedRelease,
  type RejectReason,
} from './types.js';

/** One batch's jobs while any is live, and when each entered its stage. */
export interface BatchRun {
  batchId: bigint;
  marketId: string;
  jobs: JobState[];
  createdPerf: number;
  stageSince: Map<number, number>;
  /** Each match's proof in flight, by match index (this boot only: never journaled). */
  proofs: Map<number, ProofTask>;
}

export function openRun(batchId: bigint, marketId: string, jobs: JobState[]): BatchRun {
  const now = performance.now();
  return {
    batchId,
    marketId,
    jobs,
    createdPerf: now,
    stageSince: new Map(jobs.map((j) => [j.plan.matchIdx, now])),
    proofs: new Map(),
  };
}

export function newJob(
  batch: { batchId: bigint; marketId: string },
  plan: MatchPlan,
  nowMs: number,
): JobState {
  return {
    batchId: batch.batchId,
    marketId: batch.marketId,
    plan,
    stage: 'queued',
    outcome: 'pending',
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    lockSignatures: [],
    settleSignatures: [],
  };
}

export function isLive(j: JobState): boolean {
  return !TERMINAL_STAGES.has(j.stage);
}

/** The run's jobs not yet done or failed. */
export function liveJobs(run: BatchRun): JobState[] {
  return run.jobs.filter(isLive);
}

/** The signed transactions journaled with a transition (written before they are sent). */
export type JournaledTxs = Parameters<SettlementJournal['write']>[1];

export interface JobMachineDeps {
  metrics: SettlementMetrics;
  journal: Pick<SettlementJournal, 'write'>;
  /** What each outcome does to the orders (`orders/settlement-effects.ts`). */
  effects: OrderEffects;
  now(): number;
  /** The SIGKILL test hook (after journaling a stage). */
  crash(point: string): void;
  /** Sends the job's owed releases (journaled already), each dropped from it once decided. */
  releaseOwed(j: JobState): void;
}

/**
 * The locks a match may hold that this engine made: both inputs' once a `lock_notes` was signed
 * for it (it may have landed). A release of a lock that never landed is refused by the ledger
 * (`NotLocked`), and only the locker may release at all, so nobody else's lock is ever freed.
 */
export function locksMade(j: JobState, sides: readonly ('bid' | 'ask')[] = ['bid', 'ask']): OwedRelease[] {
  if (j.lockSignatures.length === 0) return [];
  return sides.map((side) => ({
    nullifier: j.plan[side].inputNullifier,
    untilSlot: j.plan[side].lockUntilSlot,
  }));
}

export class JobMachine {
  constructor(private readonly d: JobMachineDeps) {}

  /**
   * The jobs enter a working stage and are journaled in the same step, with `txs` (a transaction
   * signed for them, journaled before it is sent).
   */
  enter(run: BatchRun, jobs: JobState[], stage: SettlementStage, txs?: JournaledTxs): void {
    this.setStage(run, jobs, stage);
    this.d.journal.write(jobs, txs);
  }

  /** Timing only: callers change stage through `enter` or a terminal transition, which journal it. */
  private setStage(run: BatchRun, jobs: JobState[], stage: SettlementStage): void {
    const t = performance.now();
    for (const j of jobs) {
      const since = run.stageSince.get(j.plan.matchIdx) ?? t;
      this.d.metrics.sample(j.stage, t - since);
      run.stageSince.set(j.plan.matchIdx, t);
      j.stage = stage;
      j.updatedAtMs = this.d.now();
    }
  }

  /** Its settlement landed with this match ok: closing (journaled), the orders told, then done. */
  confirm(run: BatchRun, j: JobState, signature: string): void {
    j.confirmedSignature = signature;
    j.outcome = 'confirmed';
    this.enter(run, [j], 'closing');
    this.d.crash('closing');
    this.d.effects.confirmed(j);
    this.d.metrics.count('matches_confirmed');
    this.d.metrics.sample('match_to_confirmed', this.d.now() - j.createdAtMs);
    // No marker account to reclaim on this ledger: closing ends at once.
    this.enter(run, [j], 'done');
    this.d.metrics.sample('match_to_done', this.d.now() - j.createdAtMs);
  }

  /**
   * Both parties' orders fail with `reason`. Neither order rests again, so every lock the engine
   * made for the match is given back (as cancel does): owed in the journal with the failure, then
   * released.
   */
  rejectBoth(run: BatchRun, j: JobState, reason: RejectReason): void {
    this.d.effects.rejected(j, 'bid', reason);
    this.d.effects.rejected(j, 'ask', reason);
    this.rejected(run, j, reason);
    j.releasesOwed = locksMade(j);
    this.d.journal.write([j]);
    this.d.crash('failed');
    this.d.releaseOwed(j);
  }

  /**
   * A failed lock: a party whose own lock failed is rejected, the other (its lock held) returns
   * to the book and its lock is released (owed in the journal with the failure, then sent): no
   * lock outlives its match, so none is reused by the next one.
   */
  lockFailed(run: BatchRun, j: JobState, bid: RejectReason | undefined, ask: RejectReason | undefined): void {
    const held: ('bid' | 'ask')[] = [];
    for (const side of ['bid', 'ask'] as const) {
      const reason = side === 'bid' ? bid : ask;
      if (reason) this.d.effects.rejected(j, side, reason, true);
      else {
        held.push(side);
        this.d.effects.returned(j, side);
        this.d.metrics.count('matches_returned_to_book');
      }
    }
    this.rejected(run, j, (bid ?? ask)!);
    j.releasesOwed = locksMade(j, held);
    this.d.journal.write([j]);
    this.d.releaseOwed(j);
  }

  /** An input consumed outside this match (recovery): failed, ambiguous, for the operator. */
  indeterminate(run: BatchRun, j: JobState): void {
    j.outcome = 'ambiguous';
    j.reason = 'indeterminate';
    this.enter(run, [j], 'failed');
  }

  /** Their transaction is undecided: journaled as ambiguous (once) until it is decided. */
  markAmbiguous(jobs: JobState[]): void {
    const changed = jobs.filter((j) => j.outcome !== 'ambiguous');
    if (changed.length === 0) return;
    for (const j of changed) {
      j.outcome = 'ambiguous';
      j.updatedAtMs = this.d.now();
    }
    this.d.metrics.count('matches_ambiguous', changed.length);
    this.d.journal.write(changed);
  }

  private rejected(run: BatchRun, j: JobState, reason: RejectReason): void {
    j.outcome = 'rejected';
    j.reason = reason;
    this.setStage(run, [j], 'failed');
    this.d.metrics.count('matches_rejected');
    this.d.metrics.reason(reason);
  }
}
