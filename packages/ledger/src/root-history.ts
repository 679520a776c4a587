/**
 * Every root every shard ever had (issue 29, contract B.4): a lock, a join-split or a withdrawal may
 * name any of them, since a nullifier, not a root, stops a double spend, and no append rate can then
 * push a proof's root out of reach. Kept in SQLite beside the notes (one row per append step, the
 * root the shard had before it), so memory stays bounded at any size and a check is one B-tree
 * lookup; the current root is the live tree's. Rows are written inside the appending transaction,
 * so the history commits (or rolls back) with the leaves.
 */
import type { ShardedTrees } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import { getMeta, setMeta, type Db } from './store.js';

/** Meta key set once the table holds the roots of every step already in `notes`. */
const COMPLETE = 'root_history_complete';

export class RootHistory {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      insert: db.prepare('INSERT OR IGNORE INTO roots (tree_id, root, size) VALUES (?, ?, ?)'),
      has: db.prepare('SELECT 1 FROM roots WHERE tree_id = ? AND root = ?').pluck(),
    };
  }

  /** Records the root `treeId` has now, before an append step replaces it. */
  recordBefore(trees: ShardedTrees, treeId: number): void {
    this.stmts.insert.run(treeId, fieldToHex(trees.root(treeId)), trees.size(treeId));
  }

  /** Whether `rootHex` is the shard's current root or any earlier one. */
  isKnown(trees: ShardedTrees, treeId: number, rootHex: string): boolean {
    if (fieldToHex(trees.root(treeId)) === rootHex) return true;
    return this.stmts.has.get(treeId, rootHex) !== undefined;
  }

  /**
   * A data directory written before the table existed: its steps are read back from which
   * transaction appended each leaf (a step's leaves are contiguous and share a tx_seq), and the root
   * before each is recomputed from the restored trees (depth hashes a step, once).
   */
  backfill(trees: ShardedTrees | undefined): void {
    if (getMeta(this.db, COMPLETE) === '1') return;
    // Without trees there is no vault and so no note yet.
    const starts = trees
      ? (this.db
          .prepare('SELECT tree_id, MIN(leaf_index) FROM notes GROUP BY tx_seq, tree_id')
          .raw()
          .all() as [number, number][])
      : [];
    this.db.transaction(() => {
      for (const [treeId, start] of starts)
        if (treeId < trees!.numTrees)
          this.stmts.insert.run(treeId, fieldToHex(trees!.shard(treeId).rootAt(start)), start);
      setMeta(this.db, COMPLETE, '1');
    })();
  }
}
