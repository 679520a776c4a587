/**
 * The revoked-token denylist: jti → expiry of every revoked token that has not yet expired, in
 * memory for the per-request check and in the store so a restart (and, with a shared store, every
 * engine) keeps it.
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

  private constructor(
    private readonly store: AccountStore,
    private readonly now: () => number,
  ) {
    this.lastSweepMs = now();
  }

  /** Drops the expired rows in the store and loads the live ones. */
  static async load(store: AccountStore, now: () => number): Promise<TokenDenylist> {
    const denylist = new TokenDenylist(store, now);
    await store.pruneRevokedTokens(denylist.lastSweepMs);
    await denylist.reload();
    return denylist;
  }

  /**
   * Adds the store's live entries (after changes may have been missed); returns those new here.
   * Nothing is dropped: an entry is never un-revoked.
   */
  async reload(): Promise<RevokedToken[]> {
    const live = await this.store.liveRevokedTokens(this.now());
    return live.filter((t) => this.learn(t));
  }

  /** Learns an entry another engine stored; returns whether it was new here. */
  learn(token: RevokedToken): boolean {
    if (this.entries.has(token.jti) || this.now() >= token.expiresAtMs) return false;
    this.entries.set(token.jti, token.expiresAtMs);
    return true;
  }

  get size(): number {
    return this.entries.size;
  }

  has(jti: string): boolean {
    return this.entries.has(jti);
  }

  /** Denylists a token until it would have expired (stored first, so a restart keeps it). */
  async add(token: RevokedToken): Promise<void> {
    const now = this.now();
    await this.store.insertRevokedToken(token);
    this.entries.set(token.jti, token.expiresAtMs);
    if (now - this.lastSweepMs >= SWEEP_INTERVAL_MS) await this.prune();
  }

  /** Drops entries (memory and disk) whose tokens have expired; returns how many left memory. */
  async prune(): Promise<number> {
    const now = this.now();
    this.lastSweepMs = now;
    let dropped = 0;
    for (const [jti, expiresAtMs] of this.entries) {
      if (now >= expiresAtMs) {
        this.entries.delete(jti);
        dropped++;
      }
    }
    await this.store.pruneRevokedTokens(now);
    return dropped;
  }
}
