/**
 * The engine's side of remote proving: each job is sealed to the workers attested now, enqueued,
 * and awaited (its completion's notification, or the slow poll when that is lost); the result is
 * opened with this boot's result key and handed to `accept`, which verifies it. A result that does
 * not open or verify goes back to the queue with its worker excluded, a few times at most; an
 * aborted job is cancelled, and one not done by its deadline is given up.
 */
import type { X25519KeyPair } from '@nightjar/crypto';
import { MatchProverBusyError, MatchProverClosedError } from '../settlement/match-prover.js';
import { decodeJobJson, encodeJobJson } from './job-codec.js';
import type { JobKind, JobQueue } from './job-queue.js';
import { openResult, sealJob } from './job-seal.js';
import type { AttestedWorker } from './types.js';

export type EngineJobQueue = Pick<JobQueue, 'enqueue' | 'state' | 'requeue' | 'cancel' | 'remove'>;

export interface RemoteJobsOptions {
  queue: EngineJobQueue;
  engineId: string;
  bootId: string;
  /** This boot's result key: workers seal results to its public half. */
  resultKey: X25519KeyPair;
  /** Look at every pending job this often, in case a notification was lost (default 2,000 ms). */
  pollMs?: number;
  /** A job not done by then is given up (default 120,000 ms). */
  deadlineMs?: number;
  /** Results tried per job before it is given up (default 3). */
  maxAttempts?: number;
  /** Jobs awaited at once; one more is refused with MatchProverBusyError (default 256). */
  maxPending?: number;
  /** A worker's result did not open or verify (the pool drops the worker). */
  onInvalidResult?: (workerId: string) => void;
}

export class RemoteProofError extends Error {
  override readonly name = 'RemoteProofError';
}

export interface RemoteRun<T> {
  kind: JobKind;
  payload: unknown;
  workers: readonly AttestedWorker[];
  /** The opened result, verified: the value to resolve with, or undefined when it is invalid. */
  accept(result: unknown): Promise<T | undefined>;
  signal?: AbortSignal | undefined;
}

interface Entry {
  check(): Promise<void>;
  checking: boolean;
  fail(err: unknown): void;
}

export class RemoteJobs {
  readonly #o: Required<Omit<RemoteJobsOptions, 'resultKey' | 'queue' | 'onInvalidResult'>> &
    RemoteJobsOptions;
  readonly #pending = new Map<string, Entry>();
  readonly #poll: NodeJS.Timeout;
  #closed = false;

  constructor(options: RemoteJobsOptions) {
    this.#o = { pollMs: 2_000, deadlineMs: 120_000, maxAttempts: 3, maxPending: 256, ...options };
    this.#poll = setInterval(() => this.wake(), this.#o.pollMs);
    this.#poll.unref();
  }

  /** Jobs awaited now (for metrics and tests). */
  get pending(): number {
    return this.#pending.size;
  }

  /** Looks at one job (its completion was notified) or, with no id, at every pending one. */
  wake(jobId?: string): void {
    const entries = jobId === undefined ? [...this.#pending.values()] : [this.#pending.get(jobId)];
    for (const e of entries) if (e && !e.checking) void e.check();
  }

  async run<T>(r: RemoteRun<T>): Promise<T> {
    if (this.#closed) throw new MatchProverClosedError();
    if (this.#pending.size >= this.#o.maxPending) throw new MatchProverBusyError(this.#o.maxPending);
    r.signal?.throwIfAborted();
    const sealed = sealJob(encodeJobJson(r.payload), r.workers);
    const id = await this.#o.queue.enqueue({
      engineId: this.#o.engineId,
      bootId: this.#o.bootId,
      kind: r.kind,
      ...sealed,
    });
    return new Promise<T>((resolve, reject) => this.#await(id, r, resolve, reject));
  }

  #await<T>(id: string, r: RemoteRun<T>, resolve: (v: T) => void, reject: (e: unknown) => void): void {
    const finish = (err: unknown, value?: T) => {
      if (!this.#pending.delete(id)) return;
      clearTimeout(deadline);
      r.signal?.removeEventListener('abort', onAbort);
      if (err === undefined) resolve(value as T);
      else reject(err);
    };
    const onAbort = () => {
      finish(r.signal!.reason);
      void this.#o.queue.cancel(id).catch(() => {});
    };
    const deadline = setTimeout(() => {
      finish(new RemoteProofError(`proof job ${id} was not done within ${this.#o.deadlineMs} ms`));
      void this.#o.queue.remove(id).catch(() => {});
    }, this.#o.deadlineMs);
    const entry: Entry = {
      checking: false,
      fail: (err) => finish(err),
      check: async () => {
        entry.checking = true;
        try {
          await this.#check(id, r, finish);
        } catch {
          // The queue is unreachable: the next poll looks again (the deadline bounds it).
        } finally {
          entry.checking = false;
        }
      },
    };
    this.#pending.set(id, entry);
    if (r.signal?.aborted) return onAbort();
    r.signal?.addEventListener('abort', onAbort, { once: true });
    void entry.check();
  }

  async #check<T>(id: string, r: RemoteRun<T>, finish: (err: unknown, value?: T) => void): Promise<void> {
    const st = await this.#o.queue.state(id);
    if (!this.#pending.has(id)) return;
    if (!st) return finish(new RemoteProofError(`proof job ${id} left the queue`));
    if (st.status !== 'done' || !st.sealedResult || !st.workerId) return;
    const value = await this.#accept(st.sealedResult, r);
    if (!this.#pending.has(id)) return;
    if (value !== undefined) {
      await this.#o.queue.remove(id);
      return finish(undefined, value);
    }
    this.#o.onInvalidResult?.(st.workerId);
    const attempts = await this.#o.queue.requeue(id, st.workerId);
    if (attempts !== undefined && attempts < this.#o.maxAttempts) return;
    await this.#o.queue.remove(id);
    finish(new RemoteProofError(`proof job ${id}: ${attempts ?? '?'} results failed verification`));
  }

  /** Opens and verifies a result; any failure to do so makes it invalid. */
  async #accept<T>(sealedResult: Uint8Array, r: RemoteRun<T>): Promise<T | undefined> {
    try {
      return await r.accept(decodeJobJson(openResult(sealedResult, this.#o.resultKey.privateKey)));
    } catch {
      return undefined;
    }
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#poll);
    for (const [id, entry] of [...this.#pending]) {
      entry.fail(new MatchProverClosedError());
      void this.#o.queue.cancel(id).catch(() => {});
    }
  }
}
