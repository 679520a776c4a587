/**
 * The sockets that have not logged in yet, counted apart from the authenticated cap: a small
 * budget per client address and one in total. Without it, one client holding hundreds of sockets
 * it never logs in (each lives up to the 10 s login deadline, and it re-opens them as they close)
 * fills the venue's socket cap and every trader's upgrade is refused.
 *
 * A full budget is shared fairly rather than first come, first served: otherwise sixteen
 * addresses holding their eight each fill the 128 and a trader from a seventeenth is refused. When
 * it is full, a new socket
 * - takes the slot of the oldest socket past its login window (it is closing, but counts until
 *   its socket is gone), if any;
 * - else, when its address holds fewer than its fair share (total / addresses holding sockets,
 *   itself included, at least 1), takes the slot of the oldest socket of the address holding the
 *   most (which holds more than that share, since the budget is full);
 * - else is refused.
 * So every address can always get one socket in to log in, and no set of addresses can keep
 * another out.
 */
export type AnonymousAdmission<S> =
  | { kind: 'fits' }
  /** Fits once `victim` (another address's socket, or a stale one) gives up its slot. */
  | { kind: 'evict'; victim: S }
  | { kind: 'refused'; why: 'address' | 'total' };

interface Entry {
  address: string;
  /** When the socket opened (the login window runs from then). */
  since: number;
}

export class AnonymousBudget<S> {
  /** Every socket waiting to log in, oldest first (a Map keeps insertion order). */
  private readonly entries = new Map<S, Entry>();
  /** The same sockets by address, oldest first. */
  private readonly byAddress = new Map<string, Set<S>>();

  constructor(
    readonly maxTotal: number,
    readonly maxPerAddress: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * Whether one more socket from `address` fits, fits after an eviction, or is refused. Sockets
   * opened at or before `staleBefore` are past their login window.
   */
  admission(address: string, staleBefore: number): AnonymousAdmission<S> {
    const own = this.byAddress.get(address)?.size ?? 0;
    if (own >= this.maxPerAddress) return { kind: 'refused', why: 'address' };
    if (this.entries.size < this.maxTotal) return { kind: 'fits' };
    const oldest = this.entries.entries().next().value;
    if (oldest !== undefined && oldest[1].since <= staleBefore) return { kind: 'evict', victim: oldest[0] };
    const addresses = this.byAddress.size + (own === 0 ? 1 : 0);
    const fairShare = Math.max(1, Math.floor(this.maxTotal / addresses));
    if (own >= fairShare) return { kind: 'refused', why: 'total' };
    return { kind: 'evict', victim: this.oldestOfLargest() };
  }

  add(session: S, address: string, since: number): void {
    this.entries.set(session, { address, since });
    let set = this.byAddress.get(address);
    if (!set) this.byAddress.set(address, (set = new Set()));
    set.add(session);
  }

  /** The socket logged in or is gone (nothing when it was not counted). */
  remove(session: S): void {
    const entry = this.entries.get(session);
    if (entry === undefined) return;
    this.entries.delete(session);
    const set = this.byAddress.get(entry.address)!;
    set.delete(session);
    if (set.size === 0) this.byAddress.delete(entry.address);
  }

  /** The oldest socket of the address holding the most (ties: the address with the oldest socket). */
  private oldestOfLargest(): S {
    let best: { session: S; count: number; since: number } | undefined;
    for (const set of this.byAddress.values()) {
      const first: S = set.values().next().value!;
      const since = this.entries.get(first)!.since;
      if (!best || set.size > best.count || (set.size === best.count && since < best.since))
        best = { session: first, count: set.size, since };
    }
    return best!.session;
  }
}
