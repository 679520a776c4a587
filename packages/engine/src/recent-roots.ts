/**
 * A shard's recent-root window, the one intake checks for 1010 (DESIGN.md section 6): every root
 * the shard had during the last {@link RECENT_ROOT_SLOTS} slots, by age, however many appends that
 * is: a client that read a finalized root just before the shard moved on has the finality depth
 * plus a minute to prove and send its order. (The ledger accepts any root a shard ever had; this
 * window is intake's freshness rule, not a safety one.) The tree mirror keeps one per shard,
 * seeded from the ledger's `getRootWindow` whenever it rebuilds the shard, so a restart or a
 * resync does not forget roots still in the window.
 */
import { COMMITMENT_LAG } from '@nightjar/ledger';

/** The window's length in slots: the finality depth plus 150 slots (a minute at 400 ms). */
export const RECENT_ROOT_SLOTS = COMMITMENT_LAG.finalized + 150;

interface Entry {
  root: bigint;
  /** Slot of the append that replaced this root; undefined while it is current. */
  replacedAt: number | undefined;
}

export class RecentRoots {
  private entries: Entry[];

  /**
   * `roots` oldest first, ending with the current root. The slots the older ones were replaced in
   * are not known: they count as replaced at `asOfSlot` (so after a rebuild a root may stay up to
   * one window longer than on the chain, never shorter).
   */
  constructor(roots: readonly bigint[], asOfSlot: number) {
    this.entries = roots.map((root, i) => ({
      root,
      replacedAt: i === roots.length - 1 ? undefined : asOfSlot,
    }));
  }

  /**
   * The chain's window (hex, oldest first) cut back to end at `current`: a window read after the
   * shard moved on holds newer roots the mirror has not applied yet. A window without `current`
   * (the shard diverged, or moved more than a window on) leaves only `current`.
   */
  static fromChain(chainRoots: readonly string[], current: bigint, asOfSlot: number): RecentRoots {
    const roots = chainRoots.map((r) => BigInt('0x' + r));
    const end = roots.lastIndexOf(current);
    return new RecentRoots(end < 0 ? [current] : roots.slice(0, end + 1), asOfSlot);
  }

  /** One append instruction, landed in `slot`: `root` becomes current; roots out of the window go. */
  push(root: bigint, slot: number): void {
    const last = this.entries[this.entries.length - 1];
    if (last) last.replacedAt = slot;
    this.entries.push({ root, replacedAt: undefined });
    const cut = this.entries.findIndex((e) => !this.expired(e, slot));
    if (cut > 0) this.entries.splice(0, cut);
  }

  /** Is `root` the current root, or was it current at some slot of the last window before `slot`? */
  has(root: bigint, slot: number): boolean {
    return this.entries.some((e) => e.root === root && !this.expired(e, slot));
  }

  /** Roots kept (the current one included). */
  get size(): number {
    return this.entries.length;
  }

  private expired(e: Entry, slot: number): boolean {
    return e.replacedAt !== undefined && e.replacedAt <= slot - RECENT_ROOT_SLOTS;
  }
}
