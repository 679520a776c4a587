/**
 * A shard's root window by age (contract B.4): every root the shard had during the last
 * {@link ROOT_WINDOW_SLOTS} slots as seen at a commitment level, however many appends that is,
 * oldest first and ending with that level's root. It is what engine intake accepts for a new order
 * (1010 otherwise): recent enough that the prover's tree was current. The ledger itself accepts
 * any root a shard ever had (root-history.ts); the window only bounds what intake takes.
 * Read back from which transaction appended each leaf (a step's leaves are contiguous and share a
 * tx_seq), so a mirror that restarts gets the same window.
 */
import type { TreeShard } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import type { Db } from './store.js';
import { ROOT_WINDOW_SLOTS } from '@nightjar/protocol/ledger-client';

/** Roots by (shard, size) already hashed: a window read repeats most of the last one's roots. */
const ROOT_CACHE_ENTRIES = 8_192;

export class RootWindows {
  private readonly stmts;
  private readonly roots = new Map<string, string>();

  constructor(db: Db) {
    this.stmts = {
      // notes_tree_slot makes both a seek plus a scan of the window's own leaves, at any shard size.
      sizeAtSlot: db
        .prepare(
          'SELECT leaf_index + 1 FROM notes WHERE tree_id = ? AND slot <= ? ORDER BY slot DESC, leaf_index DESC LIMIT 1',
        )
        .pluck(),
      stepEnds: db
        .prepare(
          'SELECT MAX(leaf_index) + 1 AS size FROM notes WHERE tree_id = ? AND slot > ? AND slot <= ? GROUP BY tx_seq ORDER BY size',
        )
        .pluck(),
    };
  }

  /**
   * The window of `shard` as seen at slot `atSlot` (the commitment level's slot), where the shard
   * held its first `size` leaves: the root it had at slot atSlot − ROOT_WINDOW_SLOTS, then the root
   * after each later append step up to atSlot; hex, oldest first.
   */
  at(shard: TreeShard, size: number, atSlot: number): string[] {
    const from = atSlot - ROOT_WINDOW_SLOTS;
    const base = (this.stmts.sizeAtSlot.get(shard.treeId, from) as number | undefined) ?? 0;
    const ends = this.stmts.stepEnds.all(shard.treeId, from, atSlot) as number[];
    const sizes = [base, ...ends.filter((s) => s > base && s <= size)];
    if (sizes[sizes.length - 1] !== size) sizes.push(size);
    return sizes.map((s) => this.rootAt(shard, s));
  }

  private rootAt(shard: TreeShard, size: number): string {
    if (size === shard.size) return fieldToHex(shard.root);
    const key = `${shard.treeId}/${size}`;
    let root = this.roots.get(key);
    if (root === undefined) {
      root = fieldToHex(shard.rootAt(size));
      if (this.roots.size >= ROOT_CACHE_ENTRIES) this.roots.delete(this.roots.keys().next().value!);
      this.roots.set(key, root);
    }
    return root;
  }
}
