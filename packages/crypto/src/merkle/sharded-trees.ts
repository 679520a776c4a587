/** The note tree as the vault keeps it: `numTrees` shards addressed by tree_id 0..numTrees-1. */
import { UnknownTreeError, ValueRangeError } from '../errors.js';
import type { MerkleProof } from './proof.js';
import { ROOT_HISTORY_SIZE, TreeShard } from './shard.js';
import { readShardedSnapshot, writeShardedSnapshot } from './snapshot.js';
import { type NodeHasher, TREE_DEPTH, defaultNodeHasher } from './zeros.js';

export interface ShardedTreesOptions {
  depth?: number;
  /** Previous roots kept per shard (default 64). */
  historySize?: number;
  hasher?: NodeHasher;
}

export class ShardedTrees {
  readonly depth: number;
  readonly historySize: number;
  private readonly shards: TreeShard[];

  constructor(numTrees: number, options: ShardedTreesOptions = {}) {
    if (!Number.isInteger(numTrees) || numTrees < 1 || numTrees > 0xffff) {
      throw new ValueRangeError('number of trees must be an integer in 1..65535');
    }
    this.depth = options.depth ?? TREE_DEPTH;
    this.historySize = options.historySize ?? ROOT_HISTORY_SIZE;
    this.shards = [];
    for (let treeId = 0; treeId < numTrees; treeId++) {
      this.shards.push(
        new TreeShard(treeId, { ...options, depth: this.depth, historySize: this.historySize }),
      );
    }
  }

  /**
   * Rebuilds every shard, its levels and its root window from `snapshot()` bytes, without hashing.
   * Throws SnapshotError when the bytes are truncated, corrupt or of another format.
   */
  static restore(bytes: Uint8Array, hasher: NodeHasher = defaultNodeHasher): ShardedTrees {
    const image = readShardedSnapshot(bytes);
    const trees = new ShardedTrees(1, { depth: image.depth, historySize: image.historyCapacity, hasher });
    trees.shards.length = 0;
    image.shards.forEach((shard, treeId) =>
      trees.shards.push(TreeShard.fromImage(treeId, image.depth, image.historyCapacity, shard, hasher)),
    );
    return trees;
  }

  get numTrees(): number {
    return this.shards.length;
  }

  /** The shard for `treeId`; throws UnknownTreeError outside 0..numTrees-1. */
  shard(treeId: number): TreeShard {
    const shard = Number.isInteger(treeId) ? this.shards[treeId] : undefined;
    if (shard === undefined)
      throw new UnknownTreeError(`tree_id must be an integer in 0..${this.numTrees - 1}`);
    return shard;
  }

  append(treeId: number, leaf: bigint): number {
    return this.shard(treeId).append(leaf);
  }

  appendBatch(treeId: number, leaves: readonly bigint[]): number {
    return this.shard(treeId).appendBatch(leaves);
  }

  root(treeId: number): bigint {
    return this.shard(treeId).root;
  }

  size(treeId: number): number {
    return this.shard(treeId).size;
  }

  proof(treeId: number, leafIndex: number): MerkleProof {
    return this.shard(treeId).proof(leafIndex);
  }

  isKnownRoot(treeId: number, root: bigint): boolean {
    return this.shard(treeId).isKnownRoot(root);
  }

  snapshot(): Uint8Array {
    return writeShardedSnapshot({
      depth: this.depth,
      historyCapacity: this.historySize,
      shards: this.shards.map((shard) => shard.image()),
    });
  }
}
