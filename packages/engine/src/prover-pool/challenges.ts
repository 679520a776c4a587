/**
 * The nonces `GET /prover/challenge` issues: random, single use, expiring after a minute, and
 * bounded in number (past the bound the oldest is forgotten, so a flood of challenges costs the
 * engine memory it has already budgeted and nothing more). Taking a nonce is the cheap first part
 * of check (a), run before any quote is parsed.
 */
import { randomBytes } from 'node:crypto';

export const PROVER_CHALLENGE_TTL_MS = 60_000;
export const PROVER_CHALLENGES_MAX = 1024;

export interface ProverChallengesOptions {
  now: () => number;
  ttlMs?: number;
  max?: number;
}

export class ProverChallenges {
  /** Nonce hex → expiry; a Map keeps insertion order, so the first entry is the oldest. */
  private readonly outstanding = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly max: number;

  constructor(private readonly options: ProverChallengesOptions) {
    this.ttlMs = options.ttlMs ?? PROVER_CHALLENGE_TTL_MS;
    this.max = options.max ?? PROVER_CHALLENGES_MAX;
  }

  issue(): string {
    this.sweep();
    while (this.outstanding.size >= this.max) {
      const oldest = this.outstanding.keys().next().value as string;
      this.outstanding.delete(oldest);
    }
    const nonce = randomBytes(32).toString('hex');
    this.outstanding.set(nonce, this.options.now() + this.ttlMs);
    return nonce;
  }

  /** Whether `nonce` was issued here and is unexpired; it is spent either way. */
  take(nonce: string): boolean {
    const key = nonce.toLowerCase();
    const expiry = this.outstanding.get(key);
    this.outstanding.delete(key);
    return expiry !== undefined && expiry > this.options.now();
  }

  get size(): number {
    return this.outstanding.size;
  }

  private sweep(): void {
    const now = this.options.now();
    for (const [nonce, expiry] of this.outstanding) if (expiry <= now) this.outstanding.delete(nonce);
  }
}
