/**
 * The prover workers attested this boot, as the queue reads them when it seals a job: a worker is
 * listed only after its evidence passed (a)–(d), lapses `ttlMs` after its last registration, and
 * a machine that registers from a new boot replaces its old entry (its old sealing key is gone
 * with the old process). Bounded: past `maxWorkers` a new machine is refused, never an old one
 * evicted by a stranger. A worker whose proof failed verification is dropped and its key refused
 * for the rest of this boot (a restarted worker process has a new key and may come back).
 */
import type { AttestedWorker, AttestedWorkers } from './types.js';

export const PROVER_REGISTRATION_TTL_MS = 5 * 60_000;
export const PROVER_REGISTRY_MAX = 256;
/** Dropped worker keys remembered at once (the oldest is forgotten first). */
export const PROVER_DROPPED_MAX = 4096;

export interface ProverRegistryOptions {
  now: () => number;
  ttlMs?: number;
  maxWorkers?: number;
}

interface Entry {
  worker: AttestedWorker;
  instanceIdSha256: string;
  expiresAtMs: number;
}

export class ProverRegistry implements AttestedWorkers {
  readonly ttlMs: number;
  private readonly maxWorkers: number;
  /** Keyed by the machine (SHA-256 of its platform instance id). */
  private readonly entries = new Map<string, Entry>();
  /** Worker ids whose proofs failed verification this boot (insertion-ordered: oldest first). */
  private readonly dropped = new Set<string>();

  constructor(private readonly options: ProverRegistryOptions) {
    this.ttlMs = options.ttlMs ?? PROVER_REGISTRATION_TTL_MS;
    this.maxWorkers = options.maxWorkers ?? PROVER_REGISTRY_MAX;
  }

  /** Admits an attested worker; false when the registry is full of other live machines. */
  admit(worker: AttestedWorker, instanceIdSha256: string): boolean {
    if (this.isDropped(worker.workerId)) throw new DroppedWorkerError();
    this.sweep();
    if (!this.entries.has(instanceIdSha256) && this.entries.size >= this.maxWorkers) return false;
    this.entries.set(instanceIdSha256, {
      worker,
      instanceIdSha256,
      expiresAtMs: this.options.now() + this.ttlMs,
    });
    return true;
  }

  list(): readonly AttestedWorker[] {
    this.sweep();
    return [...this.entries.values()].map((e) => e.worker);
  }

  get(workerId: string): AttestedWorker | undefined {
    return this.list().find((w) => w.workerId === workerId);
  }

  drop(workerId: string): void {
    for (const [key, e] of this.entries) if (e.worker.workerId === workerId) this.entries.delete(key);
    this.dropped.add(workerId);
    if (this.dropped.size > PROVER_DROPPED_MAX) this.dropped.delete(this.dropped.values().next().value!);
  }

  isDropped(workerId: string): boolean {
    return this.dropped.has(workerId);
  }

  private sweep(): void {
    const now = this.options.now();
    for (const [key, e] of this.entries) if (e.expiresAtMs <= now) this.entries.delete(key);
  }
}

/** A dropped worker registering again with the same key (the registration answers 403 1150). */
export class DroppedWorkerError extends Error {
  override readonly name = 'DroppedWorkerError';
  constructor() {
    super('this worker returned a proof that failed verification; only a restarted worker is admitted');
  }
}
