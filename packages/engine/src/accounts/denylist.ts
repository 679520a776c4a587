/**
 * The revoked-token denylist: jti → expiry of every revoked token that has not yet expired, in
 * memory for the per-request check and on disk (the store) so a restart keeps it.
 *
 * Memory: only revoked tokens that have not yet expired (at most the tokens issued within one TTL,
 * which the login bucket caps at capacity + TTL × refill per account: 1,810 an hour by default).
 * Expired entries are swept from memory and disk on an `add` at most once a minute, and by
 * {@link TokenDenylist.prune}, which the engine may also call on a timer. It is never truncated by
 * size: dropping an entry would un-revoke a live token.
 */
import type { AccountStore, RevokedToken } from './store.js';

/** Expired entries are swept at most this often on `add` (and whenever `prune` is called). */
const SWEEP_INTERVAL_MS = 60_000;

export class TokenDenylist {
  /** jti → expires_at_ms of revoked, not yet expired tokens. */
  private readonly entries = new Map<string, number>();
  private lastSweepMs: number;

  /** Drops the expired rows on disk and loads the live ones. */
  constructor(
    private readonly store: AccountStore,
    private readonly now: () => number,
  ) {
    const nowMs = this.now();
    store.pruneRevokedTokens(nowMs);
    for (const t of store.liveRevokedTokens(nowMs)) this.entries.set(t.jti, t.expiresAtMs);
    this.lastSweepMs = nowMs;
  }

  get size(): number {
    return this.entries.size;
  }

  has(jti: string): boolean {
    return this.entries.has(jti);
  }

  /** Denylists a token until it would have expired (stored first, so a restart keeps it). */
  add(token: RevokedToken): void {
    const now = this.now();
    this.store.insertRevokedToken(token);
    this.entries.set(token.jti, token.expiresAtMs);
    if (now - this.lastSweepMs >= SWEEP_INTERVAL_MS) this.prune();
  }

  /** Drops entries (memory and disk) whose tokens have expired; returns how many left memory. */
  prune(): number {
    const now = this.now();
    this.lastSweepMs = now;
    let dropped = 0;
    for (const [jti, expiresAtMs] of this.entries) {
      if (now >= expiresAtMs) {
        this.entries.delete(jti);
        dropped++;
      }
    }
    this.store.pruneRevokedTokens(now);
    return dropped;
  }
}
