/**
 * Append-only Merkle tree of fixed depth (20 for the venue), zero leaf 0, node = Poseidon(left, right).
 *
 * Every level is stored (levels[0] = leaves, levels[depth] = root), so any leaf's proof is a read.
 * Appends are lazy: they only write the leaf; the first read that needs the upper levels (root,
 * proof, rootAt, snapshot) rehashes just the nodes above the new leaves, level by level. One leaf
 * then a read costs exactly `depth` hashes; k leaves then a read cost about k + 2·depth, so
 * bulk loading (a ledger replay) hashes each internal node once.
 */
import { LeafIndexError, TreeFullError, ValueRangeError } from '../errors.js';
import { assertFieldElement } from '../field.js';
import { LeafLookup } from './leaf-lookup.js';
import { NodeStore } from './node-store.js';
import type { MerkleProof } from './proof.js';
import { readTreeSnapshot, writeTreeSnapshot } from './snapshot.js';
import { type NodeHasher, MAX_TREE_DEPTH, TREE_DEPTH, defaultNodeHasher, zeroHashes } from './zeros.js';

export class MerkleTree {
  readonly depth: number;
  /** 2^depth: the number of leaves the tree can hold. */
  readonly capacity: number;
  private readonly hasher: NodeHasher;
  private readonly zeros: readonly bigint[];
  private readonly levels: NodeStore[];
  /** Leaves [0, hashedSize) are reflected in every level above; later ones wait for `flush`. */
  private hashedSize = 0;
  private lookup: LeafLookup | undefined;

  constructor(depth: number = TREE_DEPTH, hasher: NodeHasher = defaultNodeHasher) {
    if (!Number.isInteger(depth) || depth < 1 || depth > MAX_TREE_DEPTH) {
      throw new ValueRangeError(`tree depth must be an integer in 1..${MAX_TREE_DEPTH}`);
    }
    this.depth = depth;
    this.capacity = 2 ** depth;
    this.hasher = hasher;
    this.zeros = zeroHashes(depth, hasher);
    this.levels = [];
    for (let level = 0; level <= depth; level++) this.levels.push(new NodeStore(2 ** (depth - level)));
  }

  /**
   * Rebuilds a tree from `snapshot()` bytes without hashing (the snapshot carries every level).
   * Throws SnapshotError when the bytes are truncated, corrupt or of another format.
   */
  static restore(bytes: Uint8Array, hasher: NodeHasher = defaultNodeHasher): MerkleTree {
    const { depth, size, levels } = readTreeSnapshot(bytes);
    return MerkleTree.fromLevels(depth, size, levels, hasher);
  }

  /** @internal Builds a tree around already-hashed packed levels (snapshot restore). */
  static fromLevels(depth: number, size: number, packedLevels: Uint8Array[], hasher: NodeHasher): MerkleTree {
    const tree = new MerkleTree(depth, hasher);
    for (let level = 0; level <= depth; level++) {
      const count = Math.ceil(size / 2 ** level);
      tree.levels[level] = NodeStore.fromBytes(2 ** (depth - level), packedLevels[level]!, count);
    }
    tree.hashedSize = size;
    return tree;
  }

  get size(): number {
    return this.levels[0]!.count;
  }

  get root(): bigint {
    this.flush();
    return this.size === 0 ? this.zeros[this.depth]! : this.levels[this.depth]!.get(0);
  }

  /** @internal The root if it is known without hashing (no appends since the last read), else undefined. */
  peekRoot(): bigint | undefined {
    if (this.hashedSize !== this.size) return undefined;
    return this.size === 0 ? this.zeros[this.depth]! : this.levels[this.depth]!.get(0);
  }

  /** Appends one leaf; returns its index. Throws TreeFullError when the tree is full. */
  append(leaf: bigint): number {
    assertFieldElement(leaf, 'leaf');
    const index = this.size;
    if (index >= this.capacity) throw new TreeFullError(`tree of depth ${this.depth} is full`);
    this.levels[0]!.set(index, leaf);
    return index;
  }

  /**
   * Appends leaves in order; returns the index of the first. All or nothing: every leaf is checked
   * and the capacity confirmed before anything is written.
   */
  appendMany(leaves: readonly bigint[]): number {
    leaves.forEach((leaf, i) => assertFieldElement(leaf, `leaf ${i}`));
    const first = this.size;
    if (leaves.length > this.capacity - first) {
      throw new TreeFullError(
        `tree of depth ${this.depth} has room for ${this.capacity - first} more leaves`,
      );
    }
    const store = this.levels[0]!;
    for (let i = 0; i < leaves.length; i++) store.set(first + i, leaves[i]!);
    return first;
  }

  leaf(index: number): bigint {
    this.checkIndex(index);
    return this.levels[0]!.get(index);
  }

  /** Leaves [from, to), clamped to the tree's size. */
  leaves(from = 0, to: number = this.size): bigint[] {
    const out: bigint[] = [];
    const end = Math.min(to, this.size);
    for (let i = Math.max(0, from); i < end; i++) out.push(this.levels[0]!.get(i));
    return out;
  }

  /** The first index holding `leaf`, or undefined. The lookup table is built on first use. */
  indexOf(leaf: bigint): number | undefined {
    if (typeof leaf !== 'bigint') return undefined;
    this.lookup ??= new LeafLookup(this.levels[0]!);
    return this.lookup.find(leaf);
  }

  /** Inclusion proof of leaf `index` against the current root. */
  proof(index: number): MerkleProof {
    this.checkIndex(index);
    const root = this.root;
    const siblings: bigint[] = [];
    const pathIndices: number[] = [];
    for (let level = 0, i = index; level < this.depth; level++, i = Math.floor(i / 2)) {
      const sibling = i ^ 1;
      const nodes = this.levels[level]!;
      siblings.push(sibling < nodes.count ? nodes.get(sibling) : this.zeros[level]!);
      pathIndices.push(i & 1);
    }
    return { leafIndex: index, leaf: this.levels[0]!.get(index), root, siblings, pathIndices };
  }

  /**
   * The root the tree had when it held its first `size` leaves, in `depth` hashes. Left siblings on
   * the path of leaf size-1 cover only older leaves, so their stored values are still those of then.
   */
  rootAt(size: number): bigint {
    if (!Number.isInteger(size) || size < 0 || size > this.size) {
      throw new LeafIndexError(`size must be an integer in 0..${this.size}`);
    }
    if (size === 0) return this.zeros[this.depth]!;
    if (size === this.size) return this.root;
    this.flush();
    let index = size - 1;
    let node = this.levels[0]!.get(index);
    for (let level = 0; level < this.depth; level++, index = Math.floor(index / 2)) {
      node =
        index & 1
          ? this.hasher(this.levels[level]!.get(index - 1), node)
          : this.hasher(node, this.zeros[level]!);
    }
    return node;
  }

  /** Compact binary image of the whole tree (layout in snapshot.ts). */
  snapshot(): Uint8Array {
    this.flush();
    return writeTreeSnapshot(this.depth, this.size, this.packedLevels());
  }

  /** @internal Packed views of every level, after hashing pending leaves. */
  packedLevels(): Uint8Array[] {
    this.flush();
    return this.levels.map((store) => store.packed());
  }

  /** Rehashes the nodes above leaves appended since the last flush, one level at a time. */
  private flush(): void {
    const size = this.size;
    if (this.hashedSize === size) return;
    let lo = this.hashedSize;
    let hi = size;
    for (let level = 0; level < this.depth; level++) {
      const children = this.levels[level]!;
      const parents = this.levels[level + 1]!;
      const zero = this.zeros[level]!;
      const parentLo = Math.floor(lo / 2);
      const parentHi = Math.ceil(hi / 2);
      for (let p = parentLo; p < parentHi; p++) {
        const left = children.get(2 * p);
        const right = 2 * p + 1 < hi ? children.get(2 * p + 1) : zero;
        parents.set(p, this.hasher(left, right));
      }
      lo = parentLo;
      hi = parentHi;
    }
    this.hashedSize = size;
  }

  private checkIndex(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) {
      throw new LeafIndexError(`leaf index must be an integer in [0, ${this.size})`);
    }
  }
}
