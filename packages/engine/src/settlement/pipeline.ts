/**
 * The settlement pipeline (DESIGN.md section 6): a tick's batch walks
 * queued → locking_notes → proving → verifying → settling → closing → done (or failed), each match
 * with its own outcome. Every stage is journaled before the step's ledger side effect, and every
 * transaction before it is sent. Order effects go through `OrderEffects`.
 *
 * The settlement directory, file by file:
 * - `types.ts`: the vocabulary: the order view settlement reads (`SettleableOrder`), the batch and
 *   the seam it arrives through, a match's plan and job state, reject reasons, `OrderEffects`.
 * - `pipeline.ts` (this file): the seam's implementation: plans and journals a batch, runs its
 *   phases once the signer is ready, keeps its status record; executes recovery's decisions.
 * - `phases.ts`: a batch's ledger phases: lock the inputs (each with its lock proof), then settle
 *   matches as their proofs complete (verify, conservation check, `settle_batch`); `release_lock`.
 * - `proving.ts`: each match's VALID_MATCH v2 proof, started at plan time (overlapping the locks
 *   and other batches); `match-witness.ts` its parameters and the witness-equals-plan check;
 *   `match-prover.ts` the prover seam (match and lock proofs, several at once).
 * - `change-locks.ts`: a partially filled order's change note's VALID_LOCK, made as soon as its
 *   settlement confirms (path to a root ahead of the finalized mirror); `input-path.ts` waits for
 *   a finalized path when the ledger refused that root; `order-terms.ts` the terms digests bind.
 * - `lock-window.ts`: lock lengths and auction pauses from the prover's backlog, per market, so no
 *   proof outlasts its match's locks; `fair-proof-queue.ts` the prover's turns (markets
 *   round-robin); `account-share.ts` each account's share of the queue in an auction.
 * - `scheduler.ts`: the open batches, background tasks in flight, the waits between ledger rounds.
 * - `job.ts`: a job's state machine: stage transitions (each journaled as it is made), terminal
 *   outcomes, ambiguity; the order effects it is built with.
 * - `plan.ts`: a match's plan (six outputs, lock entries, settle_by_slot), computed once at match
 *   time; conservation.
 * - `memo.ts`: fill memos encrypted to each party's viewing key (at plan time: the proof binds them).
 * - `ledger-codes.ts`: ledger error codes to the closed set of reject reasons (one exhaustive table).
 * - `status-history.ts`: the status record of batches in flight and the last 1,024 terminal ones.
 * - `signer-readiness.ts`: waiting for the settlement key to be in the finalized signer set.
 * - `recovery.ts`: restart reconciliation: reads the ledger, one decision per journaled job;
 *   `recovery-run.ts` executes them (reopen, fence, reconcile).
 * - `batch-run.ts`: a submitted batch planned into a run; `crash-hook.ts` the SIGKILL test hook;
 *   `pipeline-log.ts` the logger.
 * - `ledger-io.ts`: signing, sending, rebroadcasting and awaiting transactions (nonces).
 * - `journal.ts`, `journal-mac.ts`: the durable, authenticated job journal.
 * - `metrics.ts`: counters and stage latencies for `/admin/metrics/settlement`.
 * - `tee-key.ts`: the settlement signing key, derived from the platform and kept in the data dir.
 */
import type { Instrument, SettlementStatusResponse } from '@nightjar/protocol';
import type { LedgerClient } from '@nightjar/ledger';
import type { ChainView } from '../chain-view.js';
import { isLive, JobMachine, liveJobs, type BatchRun } from './job.js';
import type { SettlementJournal } from './journal.js';
import type { PathMirror } from './input-path.js';
import { LedgerIo } from './ledger-io.js';
import type { MatchProver, MatchVerifier } from './match-prover.js';
import { FairProofQueue } from './fair-proof-queue.js';
import { LockWindow } from './lock-window.js';
import { ChangeLocks } from './change-locks.js';
import { SettlementMetrics } from './metrics.js';
import { BatchPhases } from './phases.js';
import { MatchProving } from './proving.js';
import { BatchScheduler, untilNextSlot } from './scheduler.js';
import { SignerReadiness } from './signer-readiness.js';
import { RECENT_BATCHES, StatusHistory, statusRecord, type FinishedJob } from './status-history.js';
import type { TeeKey } from './tee-key.js';
import type { OrderEffects, OwedRelease, SettlementBatch, SettlementSeam } from './types.js';
import { planBatchRun } from './batch-run.js';
import { crashHook } from './crash-hook.js';
import { errText, type PipelineLog } from './pipeline-log.js';
import { RecoveryRun } from './recovery-run.js';
import { registerSettlementKey, type SignerSetScope } from './signer-registration.js';

export type { PipelineLog };

export interface PipelineOptions {
  ledger: LedgerClient;
  chain: ChainView;
  key: TeeKey;
  journal: SettlementJournal;
  instrument(marketId: string): Instrument | undefined;
  /** The engine's tree mirror: change notes' paths for VALID_LOCK. */
  trees: PathMirror;
  /** Where each match's VALID_MATCH proof and each change note's VALID_LOCK proof are made. */
  prover: MatchProver;
  /** Proofs handed to `prover` at once (its workers; default 1); the rest wait their turn. */
  proverConcurrency?: number;
  /** Checks each proof before it is sent. */
  verifier: MatchVerifier;
  log: PipelineLog;
  now(): number;
  /** What each settlement outcome does to the orders (`orders/settlement-effects.ts`). */
  effects: OrderEffects;
  /** Asks the ledger's admin to make the signer set exactly these keys (dev mode, tests). */
  registerTeeKeys?: (keys: string[]) => Promise<void>;
  /** Several engines: the signer set is the directory's union, decided under its lock. */
  signerSetScope?: SignerSetScope;
  /** Batches waiting for the signer set or in flight, beyond which new batches are refused. */
  maxOpenBatches?: number;
  budgetMs?: number;
  rebroadcastAfterMs?: number;
  /** Pause between rounds of an undecided (ambiguous) transaction. */
  parkMs?: number;
  /** Test hook: SIGKILL this process right after journaling this stage (or `stage:sent`; `#n`: the n-th time). */
  crashAt?: string;
}

export class SettlementPipeline implements SettlementSeam {
  readonly metrics = new SettlementMetrics();
  private readonly io: LedgerIo;
  private readonly scheduler: BatchScheduler;
  private readonly history = new StatusHistory();
  private readonly signer: SignerReadiness;
  private readonly jobs: JobMachine;
  private readonly phases: BatchPhases;
  private readonly proving: MatchProving;
  private readonly window: LockWindow;
  private readonly changeLocks: ChangeLocks;
  /** Markets whose auctions wait for their prover backlog (logged once per pause). */
  private readonly paused = new Set<string>();
  private feeOwnerCommitment = '';
  private closed = false;
  private terminalSincePrune = 0;
  recovery: Promise<void> = Promise.resolve();
  private readonly recoveryRun: RecoveryRun;
  /** The SIGKILL test hook (crash-hook.ts). */
  private readonly crash: (point: string) => void;

  constructor(private readonly o: PipelineOptions) {
    this.crash = crashHook(o.crashAt);
    o.journal.authenticate(o.key.seed);
    this.io = new LedgerIo(o.ledger, o.key, {
      budgetMs: o.budgetMs ?? 20_000,
      rebroadcastAfterMs: o.rebroadcastAfterMs ?? 1_500,
      sleep: (ms) => untilNextSlot(o.chain, ms),
    });
    this.scheduler = new BatchScheduler((err) =>
      o.log.error({ err: errText(err) }, 'settlement task failed'),
    );
    this.signer = new SignerReadiness(o.chain, o.key.address);
    this.jobs = new JobMachine({
      metrics: this.metrics,
      journal: o.journal,
      effects: o.effects,
      now: o.now,
      crash: this.crash,
      releaseOwed: (j) => this.releaseOwed(j),
    });
    const queue = new FairProofQueue(o.proverConcurrency ?? 1);
    this.changeLocks = new ChangeLocks({
      ledger: o.ledger,
      trees: o.trees,
      chain: o.chain,
      prover: o.prover,
      queue,
      metrics: this.metrics,
      instrument: o.instrument,
      log: o.log,
      crash: this.crash,
    });
    this.phases = new BatchPhases({
      ...o,
      io: this.io,
      jobs: this.jobs,
      metrics: this.metrics,
      changeLocks: this.changeLocks,
      onConfirmed: (j, record) => {
        // Its inputs are spent: their proofs are not needed again. Continuing orders' change notes next.
        this.changeLocks.forget(j.plan.bid.inputNullifier);
        this.changeLocks.forget(j.plan.ask.inputNullifier);
        this.changeLocks.begin(j, record);
      },
      closed: () => this.closed,
      crash: this.crash,
    });
    this.window = new LockWindow(o.chain, o.now, o.proverConcurrency ?? 1);
    this.proving = new MatchProving({
      prover: o.prover,
      queue,
      metrics: this.metrics,
      window: this.window,
    });
    this.recoveryRun = new RecoveryRun({
      ...o,
      metrics: this.metrics,
      io: this.io,
      signer: this.signer,
      scheduler: this.scheduler,
      jobs: this.jobs,
      phases: this.phases,
      closed: () => this.closed,
      finish: (run) => this.finish(run),
    });
  }

  get teeAddress(): string {
    return this.o.key.address;
  }

  /** Wired once the settlement key is in the finalized signer set and the ledger answers. */
  get state(): 'wired' | 'degraded' {
    return this.signer.finalized && this.o.chain.available ? 'wired' : 'degraded';
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
    await registerSettlementKey({
      ledger: this.o.ledger,
      own: this.o.key.address,
      ...(this.o.registerTeeKeys ? { registerTeeKeys: this.o.registerTeeKeys } : {}),
      ...(this.o.signerSetScope ? { scope: this.o.signerSetScope } : {}),
      log: this.o.log,
    });
    for (const j of this.o.journal.recentTerminalJobs(RECENT_BATCHES)) {
      this.history.remember(j.batchId, j.marketId, j);
      this.releaseOwed(j); // a failure journaled before its locks' release landed (a crash between)
    }
    this.recovery = this.scheduler.track(this.recoveryRun.recover());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.signer.close();
    this.window.close();
  }

  // ---- SettlementSeam ----

  submit(batch: SettlementBatch): void {
    const instrument = this.o.instrument(batch.marketId)!;
    const { run, unplannable } = planBatchRun(batch, {
      instrument,
      feeOwnerCommitment: this.feeOwnerCommitment,
      slot: BigInt(this.o.chain.slot),
      nowMs: this.o.now(),
      log: this.o.log,
    });
    this.metrics.count('batches_submitted');
    this.metrics.count('matches_submitted', run.jobs.length);
    // Journaled before anything reaches the ledger.
    this.o.journal.write(run.jobs);
    this.scheduler.runs.set(run.batchId, run);
    for (const j of unplannable) this.jobs.rejectBoth(run, j, 'settlement_rejected');
    if (this.scheduler.runs.size > (this.o.maxOpenBatches ?? 4096)) {
      // Bounded queue: nothing of this batch reached the ledger, so refusing it is safe.
      this.metrics.count('queue_overflow_rejections');
      for (const j of liveJobs(run)) this.jobs.rejectBoth(run, j, 'ledger_unavailable');
      this.finish(run);
      return;
    }
    // Proving starts now, alongside the locks: the proving stage only awaits it.
    for (const j of liveJobs(run))
      run.proofs.set(j.plan.matchIdx, this.proving.start(j, instrument, this.feeOwnerCommitment));
    this.crash('queued');
    void this.scheduler.track(this.runBatch(run));
  }

  acceptsMatches(marketId: string): boolean {
    const open = this.window.acceptsMatches(marketId);
    if (open === this.paused.has(marketId)) {
      if (open) this.paused.delete(marketId);
      else this.paused.add(marketId);
      const backlog = {
        market_id: marketId,
        proofs_ahead: this.window.aheadOf(marketId),
      };
      if (open) this.o.log.info(backlog, 'prover backlog drained: this market’s auctions resume');
      else this.o.log.warn(backlog, 'prover backlog: this market’s auctions wait until it drains');
    }
    return open;
  }

  lockSlotsFor(marketId: string, matches: number): bigint {
    return this.window.lockSlotsFor(marketId, matches);
  }

  /** A proof's time measured while the prover warmed: the lock window's estimate until one is made. */
  seedProofTime(ms: number): void {
    this.window.seedProofTime(ms);
  }

  queuedMatchesOf(accountId: string): number {
    return this.window.queuedFor(accountId);
  }

  /** A failed match's owed releases, each sent unless its lock already ended, then no longer owed. */
  private releaseOwed(j: FinishedJob): void {
    for (const owed of j.releasesOwed ?? []) void this.scheduler.track(this.releaseOne(j, owed));
  }

  private async releaseOne(j: FinishedJob, owed: OwedRelease): Promise<void> {
    if (BigInt(this.o.chain.slot) < BigInt(owed.untilSlot)) await this.phases.release(owed.nullifier);
    if (this.closed) return; // still owed in the journal: the next start sends it
    j.releasesOwed = j.releasesOwed?.filter((o) => o !== owed);
    this.o.journal.write([j]);
  }

  pendingBatches(): number {
    return this.scheduler.runs.size;
  }

  /** Matches not yet done or failed. */
  inFlightMatches(): number {
    return this.scheduler.inFlightMatches();
  }

  status(batchId: bigint): SettlementStatusResponse | undefined {
    const run = this.scheduler.runs.get(batchId);
    const rec = run ? { marketId: run.marketId, jobs: run.jobs } : this.history.get(batchId);
    return rec ? statusRecord(batchId, rec) : undefined;
  }

  metricsSnapshot() {
    return {
      settlement: this.state,
      open_batches: this.scheduler.runs.size,
      in_flight_matches: this.inFlightMatches(),
      ...this.metrics.snapshot(this.scheduler.stageDepth(), this.o.journal.writeMs.slice(-1024)),
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
  idle(): Promise<void> {
    return this.scheduler.idle();
  }

  // ---- the batch ----

  private async runBatch(run: BatchRun): Promise<void> {
    try {
      await this.signer.whenReady();
      if (this.closed) return;
      await this.phases.lock(run);
      this.dropUnneededProofs(run);
      if (liveJobs(run).length > 0 && !this.closed) await this.phases.settle(run);
    } catch (err) {
      // A bug or a closed engine: the journal keeps the batch for the next start's reconciliation.
      this.o.log.error({ err: errText(err) }, 'settlement batch stopped');
      return;
    }
    this.finish(run);
  }

  /** Matches that no longer settle (a lock failed) give up their proofs, queued or not yet begun. */
  private dropUnneededProofs(run: BatchRun): void {
    for (const j of run.jobs) if (!isLive(j)) run.proofs.get(j.plan.matchIdx)?.abort();
  }

  // ---- bookkeeping ----

  private finish(run: BatchRun): void {
    if (liveJobs(run).length > 0) return;
    this.dropUnneededProofs(run);
    this.o.journal.write(run.jobs);
    this.scheduler.runs.delete(run.batchId);
    for (const j of run.jobs) this.history.remember(run.batchId, run.marketId, j);
    if (++this.terminalSincePrune >= 256) {
      this.terminalSincePrune = 0;
      this.o.journal.prune(run.batchId - BigInt(RECENT_BATCHES * 2));
    }
  }
}
