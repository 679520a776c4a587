/**
 * A shard's recent-root window as the chain held it at any size: its current root and the previous
 * 64, one step per append instruction (DESIGN.md section 6). At the processed level it is the live
 * shard's own window; at a lagged level it is rebuilt from which transaction appended each leaf,
 * so a mirror that restarts gets back exactly the roots the chain still accepts.
 */
import { ROOT_HISTORY_SIZE, type TreeShard } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import type { Db } from './store.js';

const WINDOW = ROOT_HISTORY_SIZE + 1;

export class RootWindows {
  private readonly byLeafDesc;
  /** The last lagged window read per shard (commitment-level reads repeat until the next append). */
  private readonly cache = new Map<number, { size: number; roots: string[] }>();

  constructor(db: Db) {
    this.byLeafDesc = db
      .prepare(
        'SELECT leaf_index, tx_seq FROM notes WHERE tree_id = ? AND leaf_index < ? ORDER BY leaf_index DESC',
      )
      .raw();
  }

  /** The window of `shard` when it held its first `size` leaves, oldest first, hex. */
  at(shard: TreeShard, size: number): string[] {
    if (size === shard.size) return shard.recentRoots().map(fieldToHex);
    const cached = this.cache.get(shard.treeId);
    if (cached?.size === size) return cached.roots;
    const roots = this.stepEnds(shard.treeId, size).map((s) => fieldToHex(shard.rootAt(s)));
    this.cache.set(shard.treeId, { size, roots });
    return roots;
  }

  /**
   * The shard's size after each of its last 65 append steps up to `size`, ascending; the empty tree
   * (size 0) counts as the step before the first. A step's leaves are contiguous and share a tx_seq.
   */
  private stepEnds(treeId: number, size: number): number[] {
    const ends = [size];
    let previous: number | undefined;
    const rows = this.byLeafDesc.iterate(treeId, size) as IterableIterator<[number, number]>;
    for (const [leafIndex, seq] of rows) {
      if (previous !== undefined && seq !== previous) {
        ends.push(leafIndex + 1);
        if (ends.length === WINDOW) break;
      }
      previous = seq;
    }
    if (ends.length < WINDOW && ends[ends.length - 1] !== 0) ends.push(0);
    return ends.reverse();
  }
}
