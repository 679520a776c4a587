/**
 * `nightjar prover`: a remote prover worker (DESIGN 11). It registers with its engine (the injected
 * `register`, which carries its attestation), then claims up to `threads` jobs at once from the
 * queue the registration names, opens each with its sealing private key (held in memory only),
 * proves it with the circuits' NoteProver (`threads` single-threaded workers), heartbeats its
 * lease every lease/3, and completes the job with the result sealed to the engine's result key.
 * It registers again before its registration lapses and stops cleanly on `stop()` (SIGTERM in the
 * CLI), handing its unfinished jobs back.
 */
import {
  NoteProver,
  type LockProofResult,
  type ValidLockParams,
  type ValidMatchV2Params,
} from '@nightjar/circuits';
import { openPgPool } from '../pg/pool.js';
import type { MatchProof } from '../settlement/match-prover.js';
import { decodeJobJson, encodeJobJson } from './job-codec.js';
import { JOBS_CHANNEL, JobQueue, type ClaimedJob } from './job-queue.js';
import { openJob, sealResult } from './job-seal.js';
import { listenQueue, type QueueListener } from './queue-listener.js';
import type { RegisterWorker, WorkerRegistration } from './types.js';

/** What proves a job: the circuits' NoteProver, or a test's stand-in. */
export interface JobProver {
  proveValidMatchV2(params: ValidMatchV2Params): Promise<MatchProof>;
  proveValidLock(params: ValidLockParams): Promise<LockProofResult>;
  close(): Promise<void>;
}

export interface ProverWorkerOptions {
  register: RegisterWorker;
  /** The private half of the sealing key the registration's attestation binds. */
  sealingPrivateKey: Uint8Array;
  /** Jobs proved at once (default 1). */
  threads?: number;
  /** Default: a NoteProver with `threads` single-threaded workers (closed at stop). */
  prover?: JobProver;
  /** The lease a claim takes (default 30,000 ms); heartbeats every third of it. */
  leaseMs?: number;
  /** Look for jobs this often, in case a notification was lost (default 2,000 ms). */
  pollMs?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export interface ProverWorker {
  readonly registration: WorkerRegistration;
  /** Jobs this worker completed (its result accepted by the queue). */
  readonly completed: number;
  stop(): Promise<void>;
}

export async function runProverWorker(o: ProverWorkerOptions): Promise<ProverWorker> {
  const registration = await o.register();
  const threads = Math.max(1, o.threads ?? 1);
  const prover = o.prover ?? new NoteProver({ workers: threads, singleThread: true, maxQueue: threads });
  const loop = new WorkerLoop(o, registration, prover, threads);
  loop.start();
  return loop;
}

class WorkerLoop implements ProverWorker {
  registration: WorkerRegistration;
  completed = 0;
  readonly #o: ProverWorkerOptions;
  readonly #prover: JobProver;
  readonly #threads: number;
  readonly #pool;
  readonly #queue: JobQueue;
  readonly #running = new Map<string, Promise<void>>();
  readonly #timers: NodeJS.Timeout[] = [];
  #listener: QueueListener | undefined;
  #filling = false;
  #stopping = false;

  constructor(o: ProverWorkerOptions, registration: WorkerRegistration, prover: JobProver, threads: number) {
    this.#o = o;
    this.registration = registration;
    this.#prover = prover;
    this.#threads = threads;
    this.#pool = openPgPool(registration.queueUrl, { max: threads + 2 });
    this.#queue = new JobQueue(this.#pool, { leaseMs: o.leaseMs ?? 30_000 });
  }

  start(): void {
    this.#listener = listenQueue(this.registration.queueUrl, JOBS_CHANNEL, () => this.#fill());
    this.#timers.push(setInterval(() => this.#fill(), this.#o.pollMs ?? 2_000));
    this.#scheduleRegistration();
  }

  // Registers again at half the registration's life; a failure retries sooner.
  #scheduleRegistration(delayMs = this.registration.ttlMs / 2): void {
    const t = setTimeout(() => {
      this.#timers.splice(this.#timers.indexOf(t), 1);
      if (this.#stopping) return;
      this.#o.register().then(
        (r) => {
          this.registration = r;
          this.#scheduleRegistration();
        },
        (err: unknown) => {
          this.#o.log?.('registration failed; retrying', { err: String(err) });
          this.#scheduleRegistration(Math.min(5_000, this.registration.ttlMs / 10));
        },
      );
    }, delayMs);
    this.#timers.push(t);
  }

  #fill(): void {
    if (this.#filling || this.#stopping) return;
    const free = this.#threads - this.#running.size;
    if (free <= 0) return;
    this.#filling = true;
    this.#queue
      .claim(this.registration.workerId, free)
      .then(
        (jobs) => {
          for (const job of jobs) this.#running.set(job.id, this.#run(job));
          return jobs.length;
        },
        (err: unknown) => (this.#o.log?.('claim failed', { err: String(err) }), 0),
      )
      .then((claimed) => {
        this.#filling = false;
        // A full batch may mean more are waiting: look again while threads are free.
        if (claimed > 0 && claimed === free) this.#fill();
      });
  }

  async #run(job: ClaimedJob): Promise<void> {
    const { workerId } = this.registration;
    const beat = setInterval(
      () => void this.#queue.heartbeat(job.id, workerId).catch(() => {}),
      this.#queue.leaseMs / 3,
    );
    try {
      const result = await this.#prove(job);
      if (this.#stopping) return;
      const sealed = sealResult(encodeJobJson(result), this.registration.enginePublicKey);
      const { accepted } = await this.#queue.complete(job.id, workerId, sealed);
      if (accepted) this.completed++;
    } catch (err) {
      this.#o.log?.('job failed', { job: job.id, err: String(err) });
      await this.#queue.release(job.id, workerId).catch(() => {});
    } finally {
      clearInterval(beat);
      this.#running.delete(job.id);
      this.#fill();
    }
  }

  /** The job's proof, or `{ error }` when it cannot be opened or proved (the engine excludes us). */
  async #prove(job: ClaimedJob): Promise<unknown> {
    try {
      const params = decodeJobJson<unknown>(
        openJob(job.sealedPayload, job.sealedKey, this.#o.sealingPrivateKey),
      );
      if (job.kind === 'lock') return await this.#prover.proveValidLock(params as ValidLockParams);
      const r = await this.#prover.proveValidMatchV2(params as ValidMatchV2Params);
      return {
        proof: r.proof,
        publicInputs: r.publicInputs,
        publicSignals: r.publicSignals,
        outputs: r.outputs,
      };
    } catch (err) {
      if (this.#stopping) throw err;
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }

  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    for (const t of this.#timers.splice(0)) clearTimeout(t);
    await this.#listener?.close();
    // Unfinished jobs go back at once, before the prover stops under them.
    const workerId = this.registration.workerId;
    await Promise.all(
      [...this.#running.keys()].map((id) => this.#queue.release(id, workerId).catch(() => {})),
    );
    // Proofs still running are not awaited: their jobs are back in the queue, and a run that ends
    // now sees the stop and completes nothing.
    await this.#prover.close();
    await this.#pool.end();
  }
}
