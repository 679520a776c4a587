/**
 * One shard of the note tree: a Merkle tree plus the recent-root window. The window is the current
 * root and the previous 64, counted in append instructions on this shard (not time): an
 * instruction appending several leaves (`appendBatch`) is one step.
 */
import { ValueRangeError } from '../errors.js';
import { isFieldElement } from '../field.js';
import type { MerkleProof } from './proof.js';
import type { ShardImage } from './snapshot.js';
import { MerkleTree } from './tree.js';
import { type NodeHasher, TREE_DEPTH, defaultNodeHasher } from './zeros.js';

/** Previous roots each shard keeps besides its current one. */
export const ROOT_HISTORY_SIZE = 64;

export interface TreeShardOptions {
  depth?: number;
  /** Previous roots kept (default 64). */
  historySize?: number;
  hasher?: NodeHasher;
}

interface HistoryEntry {
  /** Leaf count of the tree when this was its root. */
  size: number;
  /** Filled in lazily: a bulk replay only hashes the roots someone asks about. */
  root: bigint | undefined;
}

export class TreeShard {
  readonly historySize: number;
  private tree: MerkleTree;
  /** Previous roots, oldest first, at most `historySize`. */
  private readonly history: HistoryEntry[] = [];

  constructor(
    readonly treeId: number,
    options: TreeShardOptions = {},
  ) {
    const historySize = options.historySize ?? ROOT_HISTORY_SIZE;
    if (!Number.isInteger(historySize) || historySize < 0 || historySize > 0xffff) {
      throw new ValueRangeError('history size must be an integer in 0..65535');
    }
    this.historySize = historySize;
    this.tree = new MerkleTree(options.depth ?? TREE_DEPTH, options.hasher ?? defaultNodeHasher);
  }

  /** @internal Rebuilds a shard from a snapshot image (no hashing). */
  static fromImage(
    treeId: number,
    depth: number,
    historySize: number,
    image: ShardImage,
    hasher: NodeHasher,
  ): TreeShard {
    const shard = new TreeShard(treeId, { depth, historySize, hasher });
    shard.tree = MerkleTree.fromLevels(depth, image.size, image.levels, hasher);
    for (const entry of image.history) shard.history.push({ size: entry.size, root: entry.root });
    return shard;
  }

  get depth(): number {
    return this.tree.depth;
  }

  get size(): number {
    return this.tree.size;
  }

  get root(): bigint {
    return this.tree.root;
  }

  leaf(index: number): bigint {
    return this.tree.leaf(index);
  }

  /** The root the shard had when it held its first `size` leaves (commitment-level reads). */
  rootAt(size: number): bigint {
    return this.tree.rootAt(size);
  }

  leaves(from?: number, to?: number): bigint[] {
    return this.tree.leaves(from, to);
  }

  indexOf(leaf: bigint): number | undefined {
    return this.tree.indexOf(leaf);
  }

  proof(index: number): MerkleProof {
    return this.tree.proof(index);
  }

  /** One append instruction of one leaf; returns its index. */
  append(leaf: bigint): number {
    const before = this.before();
    const index = this.tree.append(leaf);
    this.remember(before);
    return index;
  }

  /**
   * One append instruction of several leaves (one history step); returns the first index. An
   * empty batch changes nothing and is not a step.
   */
  appendBatch(leaves: readonly bigint[]): number {
    if (leaves.length === 0) return this.tree.size;
    const before = this.before();
    const first = this.tree.appendMany(leaves);
    this.remember(before);
    return first;
  }

  /** True for the current root and for any of the previous `historySize` roots. */
  isKnownRoot(root: bigint): boolean {
    if (!isFieldElement(root)) return false;
    if (root === this.tree.root) return true;
    return this.history.some((entry) => this.rootOf(entry) === root);
  }

  /** The window, oldest first, ending with the current root. */
  recentRoots(): bigint[] {
    return [...this.history.map((entry) => this.rootOf(entry)), this.tree.root];
  }

  /** @internal Snapshot image: every level and every history root, materialised. */
  image(): ShardImage {
    const history = this.history.map((entry) => ({ size: entry.size, root: this.rootOf(entry) }));
    return { size: this.tree.size, levels: this.tree.packedLevels(), history };
  }

  private before(): HistoryEntry {
    return { size: this.tree.size, root: this.tree.peekRoot() };
  }

  private remember(entry: HistoryEntry): void {
    if (this.historySize === 0) return;
    this.history.push(entry);
    if (this.history.length > this.historySize) this.history.shift();
  }

  private rootOf(entry: HistoryEntry): bigint {
    entry.root ??= this.tree.rootAt(entry.size);
    return entry.root;
  }
}
