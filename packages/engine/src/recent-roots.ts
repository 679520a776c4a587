/**
 * A shard's recent-root window as the chain keeps it (DESIGN.md section 6): the current root and
 * the previous 64, one per append instruction. The tree mirror keeps one per shard, seeded from the
 * ledger's `getRootWindow` whenever it rebuilds the shard, so a restart or a resync does not forget
 * roots the chain still accepts.
 */
import { ROOT_HISTORY_SIZE } from '@nightjar/crypto';

const WINDOW = ROOT_HISTORY_SIZE + 1;

export class RecentRoots {
  private roots: bigint[];

  /** `roots` oldest first, ending with the current root; only the newest 65 are kept. */
  constructor(roots: readonly bigint[]) {
    this.roots = roots.slice(-WINDOW);
  }

  /**
   * The chain's window (hex, oldest first) cut back to end at `current`: a window read after the
   * shard moved on holds newer roots the mirror has not applied yet. A window without `current`
   * (the shard diverged, or moved more than a window on) leaves only `current`.
   */
  static fromChain(chainRoots: readonly string[], current: bigint): RecentRoots {
    const roots = chainRoots.map((r) => BigInt('0x' + r));
    const end = roots.lastIndexOf(current);
    return new RecentRoots(end < 0 ? [current] : roots.slice(0, end + 1));
  }

  /** One append instruction: `root` becomes current. */
  push(root: bigint): void {
    this.roots.push(root);
    if (this.roots.length > WINDOW) this.roots.shift();
  }

  has(root: bigint): boolean {
    return this.roots.includes(root);
  }
}
