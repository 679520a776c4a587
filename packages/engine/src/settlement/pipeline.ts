/**
 * The settlement pipeline (DESIGN.md section 6): a tick's batch walks
 * queued → locking_notes → proving → verifying → settling → closing → done (or failed), each match
 * with its own outcome. Every stage is journaled before the step's ledger side effect, and every
 * transaction before it is sent. Batches run concurrently: they never share a note, because a
 * matched order stays reserved until its match is decided. Order effects go through `OrderEffects`.
 */
import { encryptFillMemo } from '@nightjar/crypto';
import {
  bytesToHex,
  hexToBytes,
  SETTLEMENT_STAGES,
  type Instrument,
  type SettlementStage,
  type SettlementStatusResponse,
} from '@nightjar/protocol';
import type { LedgerClient, LockOutcome, MatchOutcome, Transaction } from '@nightjar/ledger';
import type { ChainView } from '../chain-view.js';
import type { SettlementJournal } from './journal.js';
import { LedgerIo, type Landing } from './ledger-io.js';
import { SettlementMetrics } from './metrics.js';
import { conserves, planMatch, settleEntry } from './plan.js';
import { classifyJob } from './recovery.js';
import type { TeeKey } from './tee-key.js';
import {
  TERMINAL_STAGES,
  type JobState,
  type OrderEffects,
  type RejectReason,
  type SettlementBatch,
  type SettlementSeam,
} from './types.js';

export interface PipelineLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PipelineOptions {
  ledger: LedgerClient;
  chain: ChainView;
  key: TeeKey;
  journal: SettlementJournal;
  instrument(marketId: string): Instrument | undefined;
  log: PipelineLog;
  now(): number;
  /** Asks the ledger's admin to make the signer set exactly these keys (dev mode, tests). */
  registerTeeKeys?: (keys: string[]) => Promise<void>;
  /** Batches waiting for the signer set or in flight, beyond which new batches are refused. */
  maxOpenBatches?: number;
  budgetMs?: number;
  rebroadcastAfterMs?: number;
  /** Pause between rounds of an undecided (ambiguous) transaction. */
  parkMs?: number;
  /** Test hook: SIGKILL this process right after journaling this stage (or `stage:sent`). */
  crashAt?: string;
}

interface BatchRun {
  batchId: bigint;
  marketId: string;
  jobs: JobState[];
  createdPerf: number;
  stageSince: Map<number, number>;
}

const RECENT_BATCHES = 1024;
const LOCK_ATTEMPTS = 3;
const SETTLE_ATTEMPTS = 4;

export class SettlementPipeline implements SettlementSeam {
  readonly metrics = new SettlementMetrics();
  private readonly io: LedgerIo;
  private readonly runs = new Map<bigint, BatchRun>();
  private readonly recent = new Map<bigint, { marketId: string; jobs: JobState[] }>();
  private feeOwnerCommitment = '';
  private effects: OrderEffects | undefined;
  private readyWaiters: (() => void)[] = [];
  private readyTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private terminalSincePrune = 0;
  private inFlightWork = new Set<Promise<void>>();
  recovery: Promise<void> = Promise.resolve();

  constructor(private readonly o: PipelineOptions) {
    o.journal.authenticate(o.key.seed);
    this.io = new LedgerIo(o.ledger, o.key, {
      budgetMs: o.budgetMs ?? 20_000,
      rebroadcastAfterMs: o.rebroadcastAfterMs ?? 1_500,
      // A sent transaction can only become confirmed at a new slot: wake then, not a backoff later.
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            off();
            resolve();
          };
          const timer = setTimeout(done, ms);
          timer.unref?.();
          const off = o.chain.onSlot(done);
        }),
    });
  }

  get teeAddress(): string {
    return this.o.key.address;
  }

  /** Wired once the settlement key is in the finalized signer set and the ledger answers. */
  get state(): 'wired' | 'degraded' {
    return this.keyFinalized() && this.o.chain.available ? 'wired' : 'degraded';
  }

  setEffects(effects: OrderEffects): void {
    this.effects = effects;
  }

  /** First batch id of this boot: ids continue across restarts so journal keys never collide. */
  nextBatchIdSeed(): bigint {
    return this.o.journal.maxBatchId();
  }

  /** The first match id a market may use this boot: past every one journaled before. */
  firstMatchId(marketId: string): bigint {
    return this.o.journal.lastMatchId(marketId) + 1n;
  }

  /**
   * Before the engine trades: the nonce, the fee owner, the key's registration; then reconciles
   * the journal in the background (it may need the chain to move).
   */
  async start(): Promise<void> {
    await this.io.init(this.o.journal.maxNonce());
    const vault = await this.o.ledger.getVault({ commitment: 'processed' });
    this.feeOwnerCommitment = vault.fee_owner_commitment;
    const current = [this.o.key.address];
    // The signer set becomes exactly this key: a key an earlier boot retired (a lost data directory,
    // another platform) must not stay able to sign for the vault.
    if (this.o.registerTeeKeys && vault.tee_keys.join() !== current.join()) {
      await this.o.registerTeeKeys(current);
      this.o.log.info({}, 'settlement key registered; settlement waits until the signer set is finalized');
    } else if (!vault.tee_keys.includes(this.o.key.address)) {
      this.o.log.warn(
        { tee_key: this.o.key.address },
        'settlement key is not registered on the ledger: the operator must add it with set_tee_keys',
      );
    }
    for (const j of this.o.journal.recentTerminalJobs(RECENT_BATCHES))
      this.remember(j.batchId, j.marketId, j);
    this.recovery = this.track(this.recover());
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.readyTimer) clearInterval(this.readyTimer);
    for (const w of this.readyWaiters) w();
    this.readyWaiters = [];
  }

  // ---- SettlementSeam ----

  submit(batch: SettlementBatch): void {
    const instrument = this.o.instrument(batch.marketId)!;
    const nowMs = this.o.now();
    const slot = BigInt(this.o.chain.slot);
    const run: BatchRun = {
      batchId: batch.batchId,
      marketId: batch.marketId,
      jobs: [],
      createdPerf: performance.now(),
      stageSince: new Map(),
    };
    const unplannable: JobState[] = [];
    batch.matches.forEach((m, idx) => {
      let job: JobState;
      try {
        const plan = planMatch(m, idx, {
          instrument,
          feeOwnerCommitment: this.feeOwnerCommitment,
          slot,
          lockExpirySlot: batch.lockExpirySlot,
        });
        job = this.newJob(batch, plan, nowMs);
      } catch (err) {
        this.o.log.error({ err: err instanceof Error ? err.message : 'unknown' }, 'settlement plan failed');
        job = this.newJob(batch, minimalPlan(m, idx, batch.lockExpirySlot), nowMs);
        unplannable.push(job);
      }
      run.jobs.push(job);
      run.stageSince.set(idx, performance.now());
    });
    this.metrics.count('batches_submitted');
    this.metrics.count('matches_submitted', run.jobs.length);
    // Journaled before anything reaches the ledger.
    this.o.journal.write(run.jobs);
    this.runs.set(run.batchId, run);
    for (const j of unplannable) this.rejectBoth(run, j, 'settlement_rejected');
    if (this.runs.size > (this.o.maxOpenBatches ?? 4096)) {
      // Bounded queue: nothing of this batch reached the ledger, so refusing it is safe.
      this.metrics.count('queue_overflow_rejections');
      for (const j of this.live(run)) this.rejectBoth(run, j, 'ledger_unavailable');
      this.finish(run);
      return;
    }
    this.crash('queued');
    this.track(this.runBatch(run));
  }

  releaseLock(nullifier: string, untilSlot: bigint): void {
    if (this.closed || BigInt(this.o.chain.slot) >= untilSlot) return; // an expired lock binds nothing
    this.track(this.release(nullifier));
  }

  pendingBatches(): number {
    return this.runs.size;
  }

  /** Matches not yet done or failed. */
  inFlightMatches(): number {
    let n = 0;
    for (const r of this.runs.values()) n += this.live(r).length;
    return n;
  }

  status(batchId: bigint): SettlementStatusResponse | undefined {
    const run = this.runs.get(batchId);
    const rec = run ? { marketId: run.marketId, jobs: run.jobs } : this.recent.get(batchId);
    if (!rec) return undefined;
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

  metricsSnapshot() {
    const depth = Object.fromEntries(SETTLEMENT_STAGES.map((s) => [s, 0])) as Record<SettlementStage, number>;
    for (const r of this.runs.values()) for (const j of this.live(r)) depth[j.stage] += 1;
    return {
      settlement: this.state,
      open_batches: this.runs.size,
      in_flight_matches: this.inFlightMatches(),
      ...this.metrics.snapshot(depth, this.o.journal.writeMs.slice(-1024)),
    };
  }

  totals() {
    return {
      batches: this.metrics.counters.batches_submitted,
      confirmed_matches: this.metrics.counters.matches_confirmed,
      rejected_matches: this.metrics.counters.matches_rejected,
    };
  }

  /** Resolves when every batch (and recovery) in flight has finished (tests, planned stop). */
  async idle(): Promise<void> {
    while (this.inFlightWork.size > 0) await Promise.allSettled([...this.inFlightWork]);
  }

  // ---- the batch ----

  private async runBatch(run: BatchRun): Promise<void> {
    try {
      await this.whenReady();
      if (this.closed) return;
      await this.lockPhase(run);
      if (this.live(run).length > 0 && !this.closed) await this.settlePhase(run);
    } catch (err) {
      // A bug or a closed engine: the journal keeps the batch for the next start's reconciliation.
      this.o.log.error({ err: err instanceof Error ? err.message : 'unknown' }, 'settlement batch stopped');
      return;
    }
    this.finish(run);
  }

  private async lockPhase(run: BatchRun): Promise<void> {
    const jobs = this.live(run);
    const entries = jobs.flatMap((j) =>
      (['bid', 'ask'] as const).flatMap((side) =>
        j.plan[side].lock ? [{ j, side, lock: j.plan[side].lock! }] : [],
      ),
    );
    this.setStage(run, jobs, 'locking_notes');
    if (entries.length === 0) {
      this.o.journal.write(jobs);
      this.crash('locking_notes');
      return;
    }
    let results: LockOutcome[] | undefined;
    let confirmedSig: string | undefined;
    for (let attempt = 0; attempt < LOCK_ATTEMPTS && !results; attempt++) {
      const { tx, sent } = await this.io.submit(
        { name: 'lock_notes', args: { locks: entries.map((e) => e.lock) } },
        (tx) => {
          for (const j of jobs) j.lockSignatures.push(tx.signature);
          this.o.journal.write(jobs, [{ tx, batchId: run.batchId, kind: 'lock' }]);
          this.crash('locking_notes');
        },
      );
      this.crash('locking_notes:sent');
      this.metrics.count('lock_transactions');
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
      if (!bidFail && !askFail) continue;
      for (const side of ['bid', 'ask'] as const) {
        const reason = side === 'bid' ? bidFail : askFail;
        if (reason) this.effects?.rejected(j, side, reason);
        else {
          this.effects?.returned(j, side);
          this.metrics.count('matches_returned_to_book');
        }
      }
      this.terminal(run, j, 'rejected', bidFail ?? askFail!);
    }
    this.o.journal.write(jobs);
  }

  private async settlePhase(run: BatchRun): Promise<void> {
    let jobs = this.live(run);
    this.setStage(run, jobs, 'proving');
    for (const j of jobs) j.memos ??= [this.memoFor(j, 'bid'), this.memoFor(j, 'ask')];
    this.o.journal.write(jobs);
    this.crash('proving');

    this.setStage(run, jobs, 'verifying');
    jobs = this.balanced(run, jobs);
    this.o.journal.write(jobs);
    this.crash('verifying');
    await this.settleJobs(run, jobs);
  }

  /** The jobs whose plan conserves value per mint; any other is rejected before it is signed. */
  private balanced(run: BatchRun, jobs: JobState[]): JobState[] {
    const instrument = this.o.instrument(run.marketId);
    const mintOf = (side: 'bid' | 'ask') => (side === 'bid' ? instrument!.quote_mint : instrument!.base_mint);
    for (const j of jobs)
      if (!instrument || !conserves(j.plan, mintOf)) this.rejectBoth(run, j, 'settlement_rejected');
    return jobs.filter((j) => !TERMINAL_STAGES.has(j.stage));
  }

  /** Sends (and if lost, re-signs) the settle transaction of `jobs` until each is decided. */
  private async settleJobs(run: BatchRun, initial: JobState[]): Promise<void> {
    let pending = initial;
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS && pending.length > 0 && !this.closed; attempt++) {
      const lockEnd = Math.min(
        ...pending.flatMap((j) => [Number(j.plan.bid.lockUntilSlot), Number(j.plan.ask.lockUntilSlot)]),
      );
      if (this.o.chain.slot >= lockEnd - 1) break;
      const ix = {
        name: 'settle_batch',
        args: {
          batch_id: run.batchId.toString(),
          matches: pending.map((j) => settleEntry(j.plan, j.memos!)),
        },
      };
      const batchJobs = pending;
      const { tx, sent } = await this.io.submit(ix, (tx) => {
        this.setStage(run, batchJobs, 'settling');
        for (const j of batchJobs) j.settleSignatures.push(tx.signature);
        this.o.journal.write(batchJobs, [{ tx, batchId: run.batchId, kind: 'settle' }]);
        this.crash('settling');
      });
      this.crash('settling:sent');
      this.metrics.count('settle_transactions');
      if (sent === 'refused') continue; // refused before landing: it never lands; sign again
      if (sent === 'dropped' || sent === 'unavailable') this.markAmbiguous(batchJobs);
      const landing = await this.decide(run, batchJobs, tx);
      if (landing.kind !== 'landed') continue; // lost: nothing of it landed; sign again
      const rec = landing.record;
      const byIdx = new Map<number, MatchOutcome>((rec.result?.matches ?? []).map((m) => [m.match_idx, m]));
      for (const j of batchJobs) {
        const r = byIdx.get(j.plan.matchIdx);
        if (!rec.err && r?.ok) {
          j.confirmedSignature = rec.signature;
          j.outcome = 'confirmed';
          this.closeJob(run, j);
        } else {
          this.rejectBoth(run, j, settleReason(rec.err?.code ?? r?.err?.code));
        }
      }
      pending = [];
    }
    // Never landed within the locks' lifetime (or the engine is closing): nothing was consumed.
    if (!this.closed)
      for (const j of pending)
        this.rejectBoth(run, j, this.o.chain.available ? 'lock_expired' : 'ledger_unavailable');
    this.o.journal.write(run.jobs.filter((j) => initial.includes(j)));
  }

  private closeJob(run: BatchRun, j: JobState): void {
    this.setStage(run, [j], 'closing');
    this.o.journal.write([j]);
    this.crash('closing');
    this.effects?.confirmed(j);
    this.metrics.count('matches_confirmed');
    this.metrics.sample('match_to_confirmed', this.o.now() - j.createdAtMs);
    // No marker account to reclaim on this ledger: closing ends at once.
    this.setStage(run, [j], 'done');
    this.metrics.sample('match_to_done', this.o.now() - j.createdAtMs);
  }

  /** Waits for a transaction's fate; an undecided one marks its matches ambiguous and parks. */
  private async decide(run: BatchRun, jobs: JobState[], tx: Transaction): Promise<Landing> {
    let landing = await this.io.awaitLanding(tx);
    while (landing.kind === 'unknown' && !this.closed) {
      this.markAmbiguous(jobs);
      this.o.log.warn(
        { batch: run.batchId.toString() },
        'settlement transaction undecided; reconciling slowly',
      );
      await new Promise((r) => setTimeout(r, this.o.parkMs ?? 2000).unref?.());
      landing = await this.io.awaitLanding(tx);
    }
    return landing;
  }

  private markAmbiguous(jobs: JobState[]): void {
    const changed = jobs.filter((j) => j.outcome !== 'ambiguous');
    if (changed.length === 0) return;
    for (const j of changed) {
      j.outcome = 'ambiguous';
      j.updatedAtMs = this.o.now();
    }
    this.metrics.count('matches_ambiguous', changed.length);
    this.o.journal.write(changed);
  }

  private rejectBoth(run: BatchRun, j: JobState, reason: RejectReason): void {
    this.effects?.rejected(j, 'bid', reason);
    this.effects?.rejected(j, 'ask', reason);
    this.terminal(run, j, 'rejected', reason);
  }

  private terminal(
    run: BatchRun,
    j: JobState,
    outcome: 'rejected',
    reason: RejectReason | 'indeterminate',
  ): void {
    j.outcome = outcome;
    j.reason = reason;
    this.setStage(run, [j], 'failed');
    this.metrics.count('matches_rejected');
    this.metrics.reason(reason);
  }

  private memoFor(j: JobState, side: 'bid' | 'ask'): string {
    const p = j.plan[side];
    try {
      return bytesToHex(
        encryptFillMemo(hexToBytes(p.viewingPubkey), {
          orderId: hexToBytes(p.orderId),
          matchId: BigInt(j.plan.matchId),
          tradeAmount: BigInt(p.tradeAmount),
          changeAmount: BigInt(p.changeAmount),
          feeAmount: BigInt(p.feeAmount),
          outputInners: p.outputs.map((o) => BigInt('0x' + o.inner)),
        }),
      );
    } catch {
      return ''; // cannot happen for a key intake accepted (1008); an empty memo still settles
    }
  }

  /** `release_lock` by this key, the locker. If it never lands, the lock expires as before. */
  private async release(nullifier: string): Promise<void> {
    for (let attempt = 0; attempt < LOCK_ATTEMPTS && !this.closed; attempt++) {
      const { tx, sent } = await this.io.submit({ name: 'release_lock', args: { nullifier } }, (tx) =>
        this.o.journal.write([], [{ tx, batchId: 0n, kind: 'release' }]),
      );
      this.metrics.count('release_transactions');
      if (sent === 'refused') continue;
      if ((await this.io.awaitLanding(tx)).kind !== 'lost') return;
    }
  }

  // ---- recovery ----

  /**
   * Restart reconciliation. The journaled matches are open at once (status record, drain) and stay
   * open until the fence has landed: before that an older transaction may still land, so nothing
   * is judged, and a ledger that refuses, drops or cannot answer is simply tried again.
   */
  private async recover(): Promise<void> {
    const open = this.o.journal.openJobs();
    if (open.length === 0) return;
    this.o.log.info({ matches: open.length }, 'settlement recovery: reconciling journaled matches');
    const runs = this.reopen(open);
    await this.whenReady();
    while (!this.closed) {
      try {
        if (!(await this.fence())) continue;
        for (const run of runs) if (this.live(run).length > 0) await this.reconcile(run);
        this.o.log.info({ counters: this.metrics.counters }, 'settlement recovery done');
        return;
      } catch (err) {
        this.o.log.warn(
          { err: err instanceof Error ? err.message : 'unknown' },
          'settlement recovery: the ledger did not answer; retrying',
        );
        await new Promise((r) => setTimeout(r, this.o.parkMs ?? 2000).unref?.());
      }
    }
  }

  /** The journal's open jobs as runs again, one per batch, as journaled. */
  private reopen(open: JobState[]): BatchRun[] {
    const byBatch = new Map<bigint, JobState[]>();
    for (const j of open) byBatch.set(j.batchId, [...(byBatch.get(j.batchId) ?? []), j]);
    return [...byBatch].map(([batchId, jobs]) => {
      const run: BatchRun = {
        batchId,
        marketId: jobs[0]!.marketId,
        jobs,
        createdPerf: performance.now(),
        stageSince: new Map(jobs.map((j) => [j.plan.matchIdx, performance.now()])),
      };
      this.runs.set(batchId, run);
      return run;
    });
  }

  /**
   * A transaction with a nonce above every journaled one: once it landed, or the signer's nonce
   * passed it (`lost`), no older transaction can land. False only when the engine is closing.
   */
  private async fence(): Promise<boolean> {
    const { tx } = await this.io.submit(
      { name: 'release_lock', args: { nullifier: '00'.repeat(31) + '01' } },
      (tx) => this.o.journal.write([], [{ tx, batchId: 0n, kind: 'fence' }]),
    );
    let landing = await this.io.awaitLanding(tx);
    while (landing.kind === 'unknown' && !this.closed) {
      this.o.log.warn({}, 'settlement recovery: the fence has not landed; matches stay open');
      landing = await this.io.awaitLanding(tx);
    }
    return landing.kind !== 'unknown';
  }

  /** Classifies a reopened batch's jobs from the ledger (after the fence) and acts on each. */
  private async reconcile(run: BatchRun): Promise<void> {
    const { batchId, jobs } = run;
    const slot = await this.o.ledger.getSlot();
    const sigResults = new Map<string, MatchOutcome[]>();
    for (const sig of new Set(jobs.flatMap((j) => j.settleSignatures))) {
      const rec = await this.o.ledger.getTransaction({ signature: sig });
      if (rec && !rec.err) sigResults.set(sig, rec.result?.matches ?? []);
    }
    const statuses = await this.o.ledger.getNoteStatuses({
      nullifiers: jobs.flatMap((j) => [j.plan.bid.inputNullifier, j.plan.ask.inputNullifier]),
    });
    let redrive: JobState[] = [];
    jobs.forEach((j, i) => {
      const okSig = j.settleSignatures.find((s) =>
        sigResults.get(s)?.some((m) => m.match_idx === j.plan.matchIdx && m.ok),
      );
      const cls = classifyJob(j, {
        settledOk: okSig !== undefined,
        bid: statuses[2 * i]!,
        ask: statuses[2 * i + 1]!,
        slot,
      });
      this.o.log.info(
        { batch: batchId.toString(), match_idx: j.plan.matchIdx, class: cls },
        'settlement recovery',
      );
      if (cls === 'already_settled') {
        this.metrics.count('recovery_already_settled');
        j.confirmedSignature = okSig!;
        j.outcome = 'confirmed';
        this.closeJob(run, j);
      } else if (cls === 'redrive') {
        this.metrics.count('recovery_redriven');
        j.memos ??= [this.memoFor(j, 'bid'), this.memoFor(j, 'ask')];
        redrive.push(j);
      } else if (cls === 'indeterminate') {
        this.metrics.count('recovery_indeterminate');
        this.metrics.count('indeterminate_for_operator');
        this.o.log.error(
          { batch: batchId.toString(), match_idx: j.plan.matchIdx },
          'settlement recovery: an input was consumed outside this match; operator action needed',
        );
        j.outcome = 'ambiguous';
        j.reason = 'indeterminate';
        this.setStage(run, [j], 'failed');
      } else {
        this.metrics.count('recovery_released');
        this.rejectBoth(run, j, 'engine_restarted');
      }
    });
    // The journaled plan is checked again before it is signed again.
    redrive = this.balanced(run, redrive);
    this.o.journal.write(jobs);
    if (redrive.length > 0) await this.settleJobs(run, redrive);
    this.finish(run);
  }

  // ---- bookkeeping ----

  private newJob(batch: SettlementBatch, plan: JobState['plan'], nowMs: number): JobState {
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

  private live(run: BatchRun): JobState[] {
    return run.jobs.filter((j) => !TERMINAL_STAGES.has(j.stage));
  }

  private setStage(run: BatchRun, jobs: JobState[], stage: SettlementStage): void {
    const t = performance.now();
    for (const j of jobs) {
      const since = run.stageSince.get(j.plan.matchIdx) ?? t;
      this.metrics.sample(j.stage, t - since);
      run.stageSince.set(j.plan.matchIdx, t);
      j.stage = stage;
      j.updatedAtMs = this.o.now();
    }
  }

  private finish(run: BatchRun): void {
    if (this.live(run).length > 0) return;
    this.o.journal.write(run.jobs);
    this.runs.delete(run.batchId);
    for (const j of run.jobs) this.remember(run.batchId, run.marketId, j);
    if (++this.terminalSincePrune >= 256) {
      this.terminalSincePrune = 0;
      this.o.journal.prune(run.batchId - BigInt(RECENT_BATCHES * 2));
    }
  }

  private remember(batchId: bigint, marketId: string, j: JobState): void {
    const rec = this.recent.get(batchId);
    if (rec) {
      if (!rec.jobs.includes(j)) rec.jobs.push(j);
      return;
    }
    this.recent.set(batchId, { marketId, jobs: [j] });
    while (this.recent.size > RECENT_BATCHES) this.recent.delete(this.recent.keys().next().value as bigint);
  }

  private keyFinalized(): boolean {
    return this.o.chain.teeKeys.includes(this.o.key.address);
  }

  private whenReady(): Promise<void> {
    if (this.keyFinalized() || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.readyWaiters.push(resolve);
      this.readyTimer ??= setInterval(() => {
        void this.o.chain.poll().then(() => {
          if (!this.keyFinalized() && !this.closed) return;
          clearInterval(this.readyTimer);
          this.readyTimer = undefined;
          const waiters = this.readyWaiters;
          this.readyWaiters = [];
          for (const w of waiters) w();
        });
      }, 200);
      this.readyTimer.unref?.();
    });
  }

  private track(p: Promise<void>): Promise<void> {
    const t = p.catch((err: unknown) =>
      this.o.log.error({ err: err instanceof Error ? err.message : 'unknown' }, 'settlement task failed'),
    );
    this.inFlightWork.add(t);
    void t.finally(() => this.inFlightWork.delete(t));
    return t;
  }

  private crash(point: string): void {
    if (this.o.crashAt === point) process.kill(process.pid, 'SIGKILL');
  }
}

function lockReason(code: string | undefined): RejectReason {
  switch (code) {
    case 'UnknownRoot':
      return 'input_root_expired';
    case 'NoteSpent':
      return 'note_spent';
    case 'NoteLocked':
      return 'note_locked';
    default:
      return 'lock_rejected';
  }
}

function settleReason(code: string | undefined): RejectReason {
  switch (code) {
    case 'LockExpired':
    case 'NotLocked':
      return 'lock_expired';
    case 'NoteSpent':
      return 'note_spent';
    default:
      return 'settlement_rejected';
  }
}

/** A plan for a match that could not be planned: enough to report and reject it. */
function minimalPlan(
  m: SettlementBatch['matches'][number],
  idx: number,
  lockExpirySlot: bigint,
): JobState['plan'] {
  const party = (o: typeof m.bid) => ({
    orderId: o.orderId,
    accountId: o.accountId,
    side: o.side,
    treeId: o.treeId,
    viewingPubkey: o.viewingPubkey,
    inputNullifier: o.nullifier,
    lockUntilSlot: (o.lockedUntilSlot ?? lockExpirySlot).toString(),
    outputs: [],
    tradeAmount: '0',
    changeAmount: '0',
    feeAmount: '0',
    newAmount: '0',
    filledAfter: o.filledQuantity.toString(),
    continues: false,
  });
  return {
    matchIdx: idx,
    matchId: m.matchId.toString(),
    quantity: m.quantity.toString(),
    bid: party(m.bid),
    ask: party(m.ask),
  };
}
