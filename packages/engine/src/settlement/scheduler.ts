/**
 * When settlement work runs: the batches open now (each run concurrently: they never share a note,
 * because a matched order stays reserved until its match is decided), the background tasks in
 * flight (batches, recovery, releases) that `idle()` waits for, and the waits between ledger
 * rounds (until the next slot, or a park while a transaction is undecided).
 */
import { SETTLEMENT_STAGES, type SettlementStage } from '@nightjar/protocol';
import type { ChainView } from '../chain-view.js';
import { liveJobs, type BatchRun } from './job.js';

export class BatchScheduler {
  readonly runs = new Map<bigint, BatchRun>();
  private readonly inFlight = new Set<Promise<void>>();

  /** `onTaskError`: a background task that threw (logged; its batch stays journaled). */
  constructor(private readonly onTaskError: (err: unknown) => void) {}

  /** Runs `p` in the background, counted until it settles; never rejects. */
  track(p: Promise<void>): Promise<void> {
    const t = p.catch((err: unknown) => this.onTaskError(err));
    this.inFlight.add(t);
    void t.finally(() => this.inFlight.delete(t));
    return t;
  }

  /** Resolves when every task in flight has finished (tests, planned stop). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Matches not yet done or failed. */
  inFlightMatches(): number {
    let n = 0;
    for (const r of this.runs.values()) n += liveJobs(r).length;
    return n;
  }

  /** Live matches per stage. */
  stageDepth(): Record<SettlementStage, number> {
    const depth = Object.fromEntries(SETTLEMENT_STAGES.map((s) => [s, 0])) as Record<SettlementStage, number>;
    for (const r of this.runs.values()) for (const j of liveJobs(r)) depth[j.stage] += 1;
    return depth;
  }
}

/**
 * Sleeps `ms` or until the next slot, whichever is first: a sent transaction can only become
 * confirmed at a new slot, so wake then, not a backoff later.
 */
export function untilNextSlot(chain: Pick<ChainView, 'onSlot'>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref?.();
    const off = chain.onSlot(done);
  });
}

/** A pause between rounds of an undecided transaction or an unanswering ledger. */
export function park(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref?.());
}
