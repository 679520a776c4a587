/**
 * A batch's ledger phases: lock its inputs (one `lock_notes`: each entry with its lock proof, the
 * order's VALID_INPUT or the engine's VALID_LOCK for a change note, awaited here if it is still
 * being made), then settle its matches as their VALID_MATCH proofs complete (started at plan
 * time): each group of ready proofs is verified locally, checked for value conservation and sent
 * in its own `settle_batch` (re-signed if lost) while the slower proofs are still running. Each
 * transaction is journaled before it is sent and every undecided one waited out; and
 * `release_lock` for a lock left unused.
 */
import { hexToBytes, type Instrument } from '@nightjar/protocol';
import type { LockOutcome, MatchOutcome, Transaction, TransactionRecord } from '@nightjar/ledger';
import type { ChainView } from '../chain-view.js';
import { isLive, liveJobs, type BatchRun, type JobMachine } from './job.js';
import type { SettlementJournal } from './journal.js';
import type { Landing, LedgerIo } from './ledger-io.js';
import type { MatchVerifier } from './match-prover.js';
import type { ProofOutcome } from './proving.js';
import type { SettlementMetrics } from './metrics.js';
import { conserves, settleEntry } from './plan.js';
import { lockReason, settleReason } from './ledger-codes.js';
import { park } from './scheduler.js';
import type { JobState, LockArgs, RejectReason } from './types.js';

const LOCK_ATTEMPTS = 3;
const SETTLE_ATTEMPTS = 4;

/** A change note's lock root and proof, as `ChangeLocks` makes them. */
export interface ChangeLockSource {
  /** The VALID_LOCK entry of the change note with this nullifier; undefined when it cannot be made. */
  entry(nullifier: string): Promise<{ merkle_root: string; proof: string } | undefined>;
  /** The ledger refused the entry's root: prove again against another root the shard had. */
  reprove(nullifier: string): void;
}

export interface BatchPhasesDeps {
  io: LedgerIo;
  jobs: JobMachine;
  journal: SettlementJournal;
  chain: Pick<ChainView, 'slot' | 'available'>;
  metrics: SettlementMetrics;
  instrument(marketId: string): Instrument | undefined;
  /** Checks each proof before it is sent (a broken prover must not cost a settle transaction). */
  verifier: MatchVerifier;
  /** The VALID_LOCK proofs of partially filled orders' change notes. */
  changeLocks: ChangeLockSource;
  /** A match confirmed by this landed settlement (before its orders hear): its change notes' VALID_LOCK starts. */
  onConfirmed(j: JobState, record: TransactionRecord): void;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Pause between rounds of an undecided transaction. */
  parkMs?: number;
  /** The engine is closing: stop retrying (the journal keeps the batch). */
  closed(): boolean;
  crash(point: string): void;
}

interface LockEntry {
  j: JobState;
  side: 'bid' | 'ask';
  lock: LockArgs;
}

export class BatchPhases {
  constructor(private readonly d: BatchPhasesDeps) {}

  async lock(run: BatchRun): Promise<void> {
    const jobs = liveJobs(run);
    this.d.jobs.enter(run, jobs, 'locking_notes');
    const failure = new Map<string, RejectReason>();
    const key = (e: LockEntry) => `${e.j.plan.matchIdx}/${e.side}`;
    // Change notes' VALID_LOCK proofs, most often made already (right after their first fill).
    const entries = await this.lockEntries(jobs, (e) => failure.set(key(e), 'lock_rejected'));
    if (this.d.closed()) return;
    this.d.crash('locking_notes');
    let todo = entries;
    let confirmedSig: string | undefined;
    for (let attempt = 0; attempt < LOCK_ATTEMPTS && todo.length > 0; attempt++) {
      const landed = await this.sendLocks(run, jobs, todo);
      if (!landed) continue;
      confirmedSig = landed.signature;
      const retry: LockEntry[] = [];
      todo.forEach((e, i) => {
        const r = landed.results[i];
        if (r?.ok) return;
        // A refused root of the engine's own proof: prove again (any root the shard had will do).
        if (r?.err?.code === 'UnknownRoot' && e.lock.proof && e.j.plan[e.side].lockSource === 'change') {
          this.d.changeLocks.reprove(e.lock.nullifier);
          retry.push(e);
        } else failure.set(key(e), r ? lockReason(r.err?.code) : 'ledger_unavailable');
      });
      todo =
        retry.length > 0
          ? await this.lockEntries(
              retry.map((e) => e.j),
              () => undefined,
              retry,
            )
          : [];
      if (retry.length > 0) this.d.metrics.count('lock_root_reproved', retry.length);
    }
    for (const e of todo) failure.set(key(e), 'ledger_unavailable');
    for (const j of jobs) {
      if (confirmedSig) j.confirmedLockSignature = confirmedSig;
      j.outcome = 'pending';
      const bidFail = failure.get(`${j.plan.matchIdx}/bid`);
      const askFail = failure.get(`${j.plan.matchIdx}/ask`);
      if (bidFail || askFail) this.d.jobs.lockFailed(run, j, bidFail, askFail);
    }
    this.d.journal.write(jobs);
  }

  /**
   * The lock entries of `jobs` (or just `only`), each with its proof: a change note's is awaited
   * from `ChangeLocks` and written into the plan; one that cannot be made fails its party.
   */
  private async lockEntries(
    jobs: JobState[],
    failed: (e: LockEntry) => void,
    only?: LockEntry[],
  ): Promise<LockEntry[]> {
    const all =
      only ??
      jobs.flatMap((j) => (['bid', 'ask'] as const).map((side) => ({ j, side, lock: j.plan[side].lock })));
    const ready = await Promise.all(
      all.map(async (e) => {
        if (e.j.plan[e.side].lockSource !== 'change') return e;
        const made = await this.d.changeLocks.entry(e.lock.nullifier).catch(() => undefined);
        if (!made) {
          failed(e);
          return undefined;
        }
        e.lock.merkle_root = made.merkle_root;
        e.lock.proof = made.proof;
        return e;
      }),
    );
    return ready.filter((e): e is LockEntry => e !== undefined);
  }

  /** One `lock_notes` of `entries`: its per-entry results once it landed, undefined if it did not. */
  private async sendLocks(
    run: BatchRun,
    jobs: JobState[],
    entries: LockEntry[],
  ): Promise<{ signature: string; results: (LockOutcome | undefined)[] } | undefined> {
    const { tx, sent } = await this.d.io.submit(
      { name: 'lock_notes', args: { locks: entries.map((e) => e.lock) } },
      (tx) => {
        for (const j of jobs) j.lockSignatures.push(tx.signature);
        this.d.journal.write(jobs, [{ tx, batchId: run.batchId, kind: 'lock' }]);
      },
    );
    this.d.crash('locking_notes:sent');
    this.d.metrics.count('lock_transactions');
    if (sent === 'refused') return undefined; // refused before landing: it never lands; sign again
    const landing = await this.decide(run, jobs, tx);
    if (landing.kind !== 'landed') return undefined;
    const rec = landing.record;
    const results = rec.err
      ? entries.map((e) => ({ nullifier: e.lock.nullifier, ok: false, err: rec.err! }))
      : entries.map((_e, i) => rec.result?.locks?.[i]);
    return { signature: rec.signature, results };
  }

  /**
   * Settles the run's live matches as their proofs complete: whatever is ready when one completes
   * goes out together (at most the run's 16), verified and balance-checked first; slower proofs
   * follow in later settlements instead of holding the first ones back.
   */
  async settle(run: BatchRun): Promise<void> {
    const jobs = liveJobs(run);
    // Journaled without a proof: a restart from here releases the match (nothing to settle with).
    this.d.jobs.enter(run, jobs, 'proving');
    this.d.crash('proving');
    const noProof: ProofOutcome = { ok: false, why: 'no proof was started' };
    const done = new Map<JobState, ProofOutcome>();
    const waiting = new Set(jobs);
    let wake: (() => void) | undefined;
    for (const j of jobs)
      void (run.proofs.get(j.plan.matchIdx)?.outcome ?? Promise.resolve(noProof)).then((o) => {
        done.set(j, o);
        wake?.();
      });
    const sending: Promise<void>[] = [];
    while (waiting.size > 0) {
      if (done.size === 0) await new Promise<void>((r) => (wake = r));
      wake = undefined;
      if (this.d.closed()) return; // the journal keeps the batch; the next start releases it
      const ready = [...done];
      done.clear();
      for (const [j] of ready) waiting.delete(j);
      const group = await this.provenGroup(run, ready);
      if (group.length > 0) sending.push(this.settleJobs(run, group));
    }
    await Promise.all(sending);
  }

  /** Ready proofs: failures rejected, the rest verified and balance-checked; what may be sent. */
  private async provenGroup(run: BatchRun, ready: [JobState, ProofOutcome][]): Promise<JobState[]> {
    const signals = new Map<JobState, bigint[]>();
    for (const [j, o] of ready) {
      if (!isLive(j)) continue;
      if (o.ok) {
        j.proof = o.record;
        signals.set(j, o.publicSignals);
        continue;
      }
      this.d.metrics.count('proofs_failed');
      this.d.log.warn(
        { batch: run.batchId.toString(), match_idx: j.plan.matchIdx, why: o.why },
        'match proof failed; the match is rejected',
      );
      this.d.jobs.rejectBoth(run, j, 'settlement_rejected');
    }
    const proven = [...signals.keys()];
    // Journaled with their proofs: from here a restart settles them with the journaled proof.
    this.d.jobs.enter(run, proven, 'verifying');
    this.d.crash('proving:proved');
    const checked = await this.verified(run, proven, signals);
    if (this.d.closed()) return [];
    const settleable = this.balanced(run, checked);
    this.d.journal.write(proven);
    this.d.crash('verifying');
    return settleable;
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

  /**
   * Settles `jobs`: one `settle_batch` per settle_by_slot among them (the ledger takes one per
   * settlement), each sent (and if lost, re-signed) until decided.
   */
  async settleJobs(run: BatchRun, jobs: JobState[]): Promise<void> {
    const bySlot = new Map<string, JobState[]>();
    for (const j of jobs) bySlot.set(j.plan.settleBySlot, [...(bySlot.get(j.plan.settleBySlot) ?? []), j]);
    await Promise.all([...bySlot.values()].map((group) => this.settleGroup(run, group)));
  }

  private async settleGroup(run: BatchRun, initial: JobState[]): Promise<void> {
    let pending = initial;
    const settleBy = Number(initial[0]!.plan.settleBySlot);
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS && pending.length > 0 && !this.d.closed(); attempt++) {
      // Past settle_by_slot the ledger refuses it (SettlementExpired), and the locks end right after.
      if (this.d.chain.slot >= settleBy) break;
      const ix = {
        name: 'settle_batch',
        args: {
          batch_id: run.batchId.toString(),
          market_id: run.marketId,
          settle_by_slot: initial[0]!.plan.settleBySlot,
          matches: pending.map((j) => settleEntry(j.plan, j.memos!, j.proof!)),
        },
      };
      const batchJobs = pending;
      const { tx, sent } = await this.d.io.submit(ix, (tx) => {
        for (const j of batchJobs) j.settleSignatures.push(tx.signature);
        this.d.jobs.enter(run, batchJobs, 'settling', [{ tx, batchId: run.batchId, kind: 'settle' }]);
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
        if (!rec.err && r?.ok) {
          this.d.onConfirmed(j, rec);
          this.d.jobs.confirm(run, j, rec.signature);
        } else this.d.jobs.rejectBoth(run, j, settleReason(rec.err?.code ?? r?.err?.code));
      }
      pending = [];
    }
    // Never landed within its window (or the engine is closing): nothing was consumed.
    if (!this.d.closed())
      for (const j of pending)
        this.d.jobs.rejectBoth(run, j, this.d.chain.available ? 'lock_expired' : 'ledger_unavailable');
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
