/**
 * The prover workers attested this boot, as the queue reads them when it seals a job: a worker is
 * listed only after its evidence passed (a)–(d), lapses `ttlMs` after its last registration, and
 * a machine that registers from a new boot replaces its old entry (its old sealing key is gone
 * with the old process). Bounded: past `maxWorkers` a new machine is refused, never an old one
 * evicted by a stranger.
 */
import type { AttestedWorker, AttestedWorkers } from './types.js';

export const PROVER_REGISTRATION_TTL_MS = 5 * 60_000;
export const PROVER_REGISTRY_MAX = 256;

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

  constructor(private readonly options: ProverRegistryOptions) {
    this.ttlMs = options.ttlMs ?? PROVER_REGISTRATION_TTL_MS;
    this.maxWorkers = options.maxWorkers ?? PROVER_REGISTRY_MAX;
  }

  /** Admits an attested worker; false when the registry is full of other live machines. */
  admit(worker: AttestedWorker, instanceIdSha256: string): boolean {
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

  private sweep(): void {
    const now = this.options.now();
    for (const [key, e] of this.entries) if (e.expiresAtMs <= now) this.entries.delete(key);
  }
}
