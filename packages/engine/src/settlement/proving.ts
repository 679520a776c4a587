/**
 * Each match's VALID_MATCH v2 proof, started as soon as its plan and memos exist (while its inputs
 * are being locked, and while other batches lock and settle) and awaited as it completes: the
 * settlement sends what is ready. No Merkle path: the locks' own proofs showed the notes in their
 * trees. A proof that fails for any reason (a witness that disagrees with the plan, a prover error
 * or a full queue) is an outcome, never a throw: it rejects that match only.
 */
import { bytesToHex, type Instrument } from '@nightjar/protocol';
import type { FairProofQueue } from './fair-proof-queue.js';
import type { LockWindow, ProofTicket } from './lock-window.js';
import type { MatchProver } from './match-prover.js';
import { matchParams, witnessMismatch } from './match-witness.js';
import type { SettlementMetrics } from './metrics.js';
import type { JobState, MatchProofRecord } from './types.js';

export type ProofOutcome =
  { ok: true; record: MatchProofRecord; publicSignals: bigint[] } | { ok: false; why: string };

export interface ProofTask {
  outcome: Promise<ProofOutcome>;
  /** The match no longer needs its proof (rejected before it was awaited). */
  abort(): void;
}

export interface MatchProvingDeps {
  prover: MatchProver;
  /** When each proof gets the prover: markets in turn (one market's burst does not hold up others). */
  queue: FairProofQueue;
  metrics: SettlementMetrics;
  /** Learns the prover's backlog and throughput (lock lengths and auction pauses follow it). */
  window: Pick<LockWindow, 'proofQueued' | 'proofHanded' | 'proofEnded'>;
}

export class MatchProving {
  constructor(private readonly d: MatchProvingDeps) {}

  start(job: JobState, instrument: Instrument, feeOwnerCommitment: string): ProofTask {
    const ctrl = new AbortController();
    const ticket = this.d.window.proofQueued(job.marketId, [job.plan.bid.accountId, job.plan.ask.accountId]);
    const outcome = this.prove(job, instrument, feeOwnerCommitment, ctrl.signal, ticket)
      .catch((err: unknown): ProofOutcome => ({
        ok: false,
        why: err instanceof Error ? err.message : String(err),
      }))
      .then((o) => {
        this.d.window.proofEnded(ticket, o.ok);
        return o;
      });
    return { outcome, abort: () => ctrl.abort(new Error('match no longer settles')) };
  }

  private async prove(
    job: JobState,
    instrument: Instrument,
    feeOwnerCommitment: string,
    signal: AbortSignal,
    ticket: ProofTicket,
  ): Promise<ProofOutcome> {
    const { plan } = job;
    if (!job.memos) return { ok: false, why: 'no memos: the proof binds them' };
    const params = matchParams(plan, job.marketId, instrument, feeOwnerCommitment, job.memos);
    const mismatch = witnessMismatch(plan, params);
    if (mismatch) return { ok: false, why: `the witness disagrees with the plan (${mismatch})` };
    let t1 = 0;
    const r = await this.d.queue.run(
      job.marketId,
      () => {
        t1 = performance.now();
        this.d.window.proofHanded(ticket);
        return this.d.prover.prove(params, signal);
      },
      signal,
    );
    this.d.metrics.sample('prove', performance.now() - t1);
    return { ok: true, record: { proof: bytesToHex(r.proof) }, publicSignals: r.publicSignals };
  }
}
