/**
 * A batch's ledger phases: lock its inputs (one `lock_notes`), then build memos, await each
 * match's VALID_MATCH proof (started at plan time), verify it locally, check value conservation
 * and settle (one `settle_batch`, re-signed if lost), each transaction journaled before it is sent
 * and every undecided one waited out; and `release_lock` for a lock left unused.
 */
import { hexToBytes, type Instrument } from '@nightjar/protocol';
import type { LockOutcome, MatchOutcome, Transaction } from '@nightjar/ledger';
import type { ChainView } from '../chain-view.js';
import { isLive, liveJobs, type BatchRun, type JobMachine } from './job.js';
import type { SettlementJournal } from './journal.js';
import type { Landing, LedgerIo } from './ledger-io.js';
import { fillMemos } from './memo.js';
import type { MatchVerifier } from './match-prover.js';
import type { ProofOutcome } from './proving.js';
import type { SettlementMetrics } from './metrics.js';
import { conserves, settleEntry } from './plan.js';
import { lockReason, settleReason } from './ledger-codes.js';
import { park } from './scheduler.js';
import type { JobState, RejectReason } from './types.js';

const LOCK_ATTEMPTS = 3;
const SETTLE_ATTEMPTS = 4;

export interface BatchPhasesDeps {
  io: LedgerIo;
  jobs: JobMachine;
  journal: SettlementJournal;
  chain: Pick<ChainView, 'slot' | 'available'>;
  metrics: SettlementMetrics;
  instrument(marketId: string): Instrument | undefined;
  /** Checks each proof before it is sent (a broken prover must not cost a settle transaction). */
  verifier: MatchVerifier;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Pause between rounds of an undecided transaction. */
  parkMs?: number;
  /** The engine is closing: stop retrying (the journal keeps the batch). */
  closed(): boolean;
  crash(point: string): void;
}

export class BatchPhases {
  constructor(private readonly d: BatchPhasesDeps) {}

  async lock(run: BatchRun): Promise<void> {
    const jobs = liveJobs(run);
    const entries = jobs.flatMap((j) =>
      (['bid', 'ask'] as const).flatMap((side) =>
        j.plan[side].lock ? [{ j, side, lock: j.plan[side].lock! }] : [],
      ),
    );
    this.d.jobs.setStage(run, jobs, 'locking_notes');
    if (entries.length === 0) {
      this.d.journal.write(jobs);
      this.d.crash('locking_notes');
      return;
    }
    let results: LockOutcome[] | undefined;
    let confirmedSig: string | undefined;
    for (let attempt = 0; attempt < LOCK_ATTEMPTS && !results; attempt++) {
      const { tx, sent } = await this.d.io.submit(
        { name: 'lock_notes', args: { locks: entries.map((e) => e.lock) } },
        (tx) => {
          for (const j of jobs) j.lockSignatures.push(tx.signature);
          this.d.journal.write(jobs, [{ tx, batchId: run.batchId, kind: 'lock' }]);
          this.d.crash('locking_notes');
        },
      );
      this.d.crash('locking_notes:sent');
      this.d.metrics.count('lock_transactions');
      if (sent === 'refused') continue; // refused before landing: it never lands; sign again
      const landing = await this.decide(run, jobs, tx);
      if (landing.kind !== 'landed') continue;
      const rec = landing.record;
      confirmedSig = rec.signature;
      results = rec.err
        ? entries.map((e) => ({ nullifier: e.lock.nullifier, ok: false, err: rec.err! }))
        : (rec.result?.locks ?? []);
    }
    const failure = new Map<string, RejectReason>();
    entries.forEach((e, i) => {
      const r = results?.[i];
      if (!r) failure.set(`${e.j.plan.matchIdx}/${e.side}`, 'ledger_unavailable');
      else if (!r.ok) failure.set(`${e.j.plan.matchIdx}/${e.side}`, lockReason(r.err?.code));
    });
    for (const j of jobs) {
      if (confirmedSig) j.confirmedLockSignature = confirmedSig;
      j.outcome = 'pending';
      const bidFail = failure.get(`${j.plan.matchIdx}/bid`);
      const askFail = failure.get(`${j.plan.matchIdx}/ask`);
      if (bidFail || askFail) this.d.jobs.lockFailed(run, j, bidFail, askFail);
    }
    this.d.journal.write(jobs);
  }

  async settle(run: BatchRun): Promise<void> {
    let jobs = liveJobs(run);
    this.d.jobs.setStage(run, jobs, 'proving');
    for (const j of jobs) j.memos ??= fillMemos(j);
    // Journaled without a proof: a restart from here releases the match (nothing to settle with).
    this.d.journal.write(jobs);
    this.d.crash('proving');
    const noProof: ProofOutcome = { ok: false, why: 'no proof was started' };
    const outcomes = await Promise.all(
      jobs.map((j) => run.proofs.get(j.plan.matchIdx)?.outcome ?? Promise.resolve(noProof)),
    );
    if (this.d.closed()) return; // the journal keeps the batch; the next start releases it
    const signals = new Map<JobState, bigint[]>();
    jobs.forEach((j, i) => {
      const o = outcomes[i]!;
      if (o.ok) {
        j.proof = o.record;
        signals.set(j, o.publicSignals);
        return;
      }
      this.d.metrics.count('proofs_failed');
      this.d.log.warn(
        { batch: run.batchId.toString(), match_idx: j.plan.matchIdx, why: o.why },
        'match proof failed; the match is rejected',
      );
      this.d.jobs.rejectBoth(run, j, 'settlement_rejected');
    });
    this.d.journal.write(jobs);
    this.d.crash('proving:proved');

    jobs = jobs.filter(isLive);
    this.d.jobs.setStage(run, jobs, 'verifying');
    const checked = await this.verified(run, jobs, signals);
    if (this.d.closed()) return;
    const settleable = this.balanced(run, checked);
    this.d.journal.write(jobs);
    this.d.crash('verifying');
    await this.settleJobs(run, settleable);
  }

  /** The jobs whose proof the local verifier accepts (off the event loop); the rest are rejected. */
  private async verified(
    run: BatchRun,
    jobs: JobState[],
    signals: Map<JobState, bigint[]>,
  ): Promise<JobState[]> {
    const t0 = performance.now();
    const oks = await Promise.all(
      jobs.map((j) => this.d.verifier.verify(hexToBytes(j.proof!.proof), signals.get(j)!).catch(() => false)),
    );
    this.d.metrics.sample('verify', performance.now() - t0);
    jobs.forEach((j, i) => {
      if (oks[i]) return;
      this.d.metrics.count('proofs_refused_by_local_verifier');
      this.d.log.error(
        { batch: run.batchId.toString(), match_idx: j.plan.matchIdx },
        'the local verifier refused a match proof; the match is rejected',
      );
      this.d.jobs.rejectBoth(run, j, 'settlement_rejected');
    });
    return jobs.filter(isLive);
  }

  /** The jobs whose plan conserves value per mint; any other is rejected before it is signed. */
  balanced(run: BatchRun, jobs: JobState[]): JobState[] {
    const instrument = this.d.instrument(run.marketId);
    const mintOf = (side: 'bid' | 'ask') => (side === 'bid' ? instrument!.quote_mint : instrument!.base_mint);
    for (const j of jobs)
      if (!instrument || !conserves(j.plan, mintOf)) this.d.jobs.rejectBoth(run, j, 'settlement_rejected');
    return jobs.filter(isLive);
  }

  /** Sends (and if lost, re-signs) the settle transaction of `jobs` until each is decided. */
  async settleJobs(run: BatchRun, initial: JobState[]): Promise<void> {
    let pending = initial;
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS && pending.length > 0 && !this.d.closed(); attempt++) {
      const lockEnd = Math.min(
        ...pending.flatMap((j) => [Number(j.plan.bid.lockUntilSlot), Number(j.plan.ask.lockUntilSlot)]),
      );
      if (this.d.chain.slot >= lockEnd - 1) break;
      const ix = {
        name: 'settle_batch',
        args: {
          batch_id: run.batchId.toString(),
          market_id: run.marketId,
          matches: pending.map((j) => settleEntry(j.plan, j.memos!, j.proof!)),
        },
      };
      const batchJobs = pending;
      const { tx, sent } = await this.d.io.submit(ix, (tx) => {
        this.d.jobs.setStage(run, batchJobs, 'settling');
        for (const j of batchJobs) j.settleSignatures.push(tx.signature);
        this.d.journal.write(batchJobs, [{ tx, batchId: run.batchId, kind: 'settle' }]);
        this.d.crash('settling');
      });
      this.d.crash('settling:sent');
      this.d.metrics.count('settle_transactions');
      if (sent === 'refused') continue; // refused before landing: it never lands; sign again
      if (sent === 'dropped' || sent === 'unavailable') this.d.jobs.markAmbiguous(batchJobs);
      const landing = await this.decide(run, batchJobs, tx);
      if (landing.kind !== 'landed') continue; // lost: nothing of it landed; sign again
      const rec = landing.record;
      const byIdx = new Map<number, MatchOutcome>((rec.result?.matches ?? []).map((m) => [m.match_idx, m]));
      for (const j of batchJobs) {
        const r = byIdx.get(j.plan.matchIdx);
        if (!rec.err && r?.ok) this.d.jobs.confirm(run, j, rec.signature);
        else this.d.jobs.rejectBoth(run, j, settleReason(rec.err?.code ?? r?.err?.code));
      }
      pending = [];
    }
    // Never landed within the locks' lifetime (or the engine is closing): nothing was consumed.
    if (!this.d.closed())
      for (const j of pending)
        this.d.jobs.rejectBoth(run, j, this.d.chain.available ? 'lock_expired' : 'ledger_unavailable');
    this.d.journal.write(run.jobs.filter((j) => initial.includes(j)));
  }

  /** Waits for a transaction's fate; an undecided one marks its matches ambiguous and parks. */
  private async decide(run: BatchRun, jobs: JobState[], tx: Transaction): Promise<Landing> {
    let landing = await this.d.io.awaitLanding(tx);
    while (landing.kind === 'unknown' && !this.d.closed()) {
      this.d.jobs.markAmbiguous(jobs);
      this.d.log.warn(
        { batch: run.batchId.toString() },
        'settlement transaction undecided; reconciling slowly',
      );
      await park(this.d.parkMs ?? 2000);
      landing = await this.d.io.awaitLanding(tx);
    }
    return landing;
  }

  /** `release_lock` by this key, the locker. If it never lands, the lock expires as before. */
  async release(nullifier: string): Promise<void> {
    for (let attempt = 0; attempt < LOCK_ATTEMPTS && !this.d.closed(); attempt++) {
      const { tx, sent } = await this.d.io.submit({ name: 'release_lock', args: { nullifier } }, (tx) =>
        this.d.journal.write([], [{ tx, batchId: 0n, kind: 'release' }]),
      );
      this.d.metrics.count('release_transactions');
      if (sent === 'refused') continue;
      if ((await this.d.io.awaitLanding(tx)).kind !== 'lost') return;
    }
  }
}
