/**
 * Each match's VALID_MATCH proof, started as soon as its plan exists (while its inputs are being
 * locked, and while other batches lock and settle) and awaited in the `proving` stage. A proof
 * that fails for any reason (input not in the mirror in time, a witness that disagrees with the
 * plan, a prover error or a full queue) is an outcome, never a throw: it rejects that match only.
 */
import { validMatchPublicSignals } from '@nightjar/crypto';
import { bytesToHex, fieldToHex, type Instrument } from '@nightjar/protocol';
import type { ChainView } from '../chain-view.js';
import { inputPath, type PathMirror } from './input-path.js';
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
  trees: PathMirror;
  chain: Pick<ChainView, 'slot' | 'onSlot'>;
  metrics: SettlementMetrics;
  /** Learns the prover's backlog and throughput (lock lengths and auction pauses follow it). */
  window: Pick<LockWindow, 'proofQueued' | 'proofHanded' | 'proofEnded'>;
}

/** Slots before the earlier input lock ends by which a proof must have its inputs' paths. */
const PATH_DEADLINE_MARGIN = 4;

export class MatchProving {
  constructor(private readonly d: MatchProvingDeps) {}

  start(job: JobState, instrument: Instrument, feeOwnerCommitment: string): ProofTask {
    const ctrl = new AbortController();
    // Counted from now, path wait included: a match waiting for its paths is still backlog.
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
    const deadline =
      Math.min(Number(plan.bid.lockUntilSlot), Number(plan.ask.lockUntilSlot)) - PATH_DEADLINE_MARGIN;
    const t0 = performance.now();
    const path = (side: 'bid' | 'ask') =>
      inputPath(this.d.trees, this.d.chain, plan[side].treeId, plan[side].input.commitment, deadline, signal);
    const [bid, ask] = await Promise.all([path('bid'), path('ask')]);
    this.d.metrics.sample('input_path_wait', performance.now() - t0);
    const params = matchParams(plan, instrument, feeOwnerCommitment, { bid, ask });
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
    return {
      ok: true,
      record: {
        proof: bytesToHex(r.proof),
        roots: [fieldToHex(r.publicInputs.rootBid), fieldToHex(r.publicInputs.rootAsk)],
      },
      publicSignals: validMatchPublicSignals(r.publicInputs),
    };
  }
}
