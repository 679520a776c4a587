import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cheapHasher, countingHasher } from '../../test/helpers/hashers.js';
import { seededFieldElements } from '../../test/helpers/seeded.js';
import { isCryptoError } from '../errors.js';
import { MerkleTree, ShardedTrees } from './index.js';

function expectSnapshotError(restore: () => unknown): void {
  let caught: unknown;
  try {
    restore();
  } catch (err) {
    caught = err;
  }
  expect(isCryptoError(caught, 'MERKLE_SNAPSHOT_INVALID')).toBe(true);
}

/** Rewrites the trailing SHA-256 so that a deliberately altered body passes the checksum. */
function withFreshChecksum(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  out.set(
    createHash('sha256')
      .update(out.subarray(0, out.length - 32))
      .digest(),
    out.length - 32,
  );
  return out;
}

describe('MerkleTree snapshot', () => {
  it('round trips a depth-20 Poseidon tree: root, leaves, proofs, and later appends agree', () => {
    const leaves = seededFieldElements('snapshot', 37);
    const tree = new MerkleTree();
    tree.appendMany(leaves);
    const bytes = tree.snapshot();
    // 12 header + (37 + 19 + 10 + 5 + 3 + 2 + 1·15) nodes + 32 checksum
    expect(bytes.length).toBe(12 + (37 + 19 + 10 + 5 + 3 + 2 + 15) * 32 + 32);

    const restored = MerkleTree.restore(bytes);
    expect(restored.depth).toBe(20);
    expect(restored.size).toBe(37);
    expect(restored.root).toBe(tree.root);
    expect(restored.leaves()).toEqual(leaves);
    expect(restored.proof(36)).toEqual(tree.proof(36));
    expect(restored.indexOf(leaves[20]!)).toBe(20);

    tree.append(5n);
    restored.append(5n);
    expect(restored.root).toBe(tree.root);
  });

  it('restores without hashing anything', () => {
    const tree = new MerkleTree(16, cheapHasher);
    tree.appendMany(Array.from({ length: 20_000 }, (_, i) => BigInt(i * 7 + 3)));
    const bytes = tree.snapshot();
    const counter = countingHasher(cheapHasher);
    const restored = MerkleTree.restore(bytes, counter.hasher);
    expect(counter.calls).toBe(16); // only the zero hashes of a hasher never seen before
    counter.reset();
    expect(restored.root).toBe(tree.root);
    expect(restored.proof(12_345)).toEqual(tree.proof(12_345));
    expect(counter.calls).toBe(0);
  });

  it('round trips the empty tree and a full one', () => {
    const empty = new MerkleTree(5);
    expect(MerkleTree.restore(empty.snapshot()).root).toBe(empty.root);
    const full = new MerkleTree(3, cheapHasher);
    full.appendMany([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n]);
    const restored = MerkleTree.restore(full.snapshot(), cheapHasher);
    expect(restored.root).toBe(full.root);
    expect(() => restored.append(9n)).toThrow(expect.objectContaining({ code: 'MERKLE_TREE_FULL' }));
  });

  it('any flipped byte, truncation or extension is refused', () => {
    const tree = new MerkleTree(4, cheapHasher);
    tree.appendMany([11n, 22n, 33n, 44n, 55n]);
    const bytes = tree.snapshot();
    for (let i = 0; i < bytes.length; i++) {
      const corrupt = Uint8Array.from(bytes);
      corrupt[i] = corrupt[i]! ^ 0x01;
      expectSnapshotError(() => MerkleTree.restore(corrupt, cheapHasher));
    }
    for (const length of [0, 10, 40, bytes.length - 1]) {
      expectSnapshotError(() => MerkleTree.restore(bytes.subarray(0, length), cheapHasher));
    }
    expectSnapshotError(() => MerkleTree.restore(Uint8Array.from([...bytes, 0]), cheapHasher));
  });

  it('checks structure behind a valid checksum: version, depth, counts, reserved bytes', () => {
    const tree = new MerkleTree(4, cheapHasher);
    tree.appendMany([11n, 22n, 33n]);
    const bytes = tree.snapshot();
    const edit = (offset: number, value: number): Uint8Array => {
      const out = Uint8Array.from(bytes);
      out[offset] = value;
      return withFreshChecksum(out);
    };
    expect(MerkleTree.restore(withFreshChecksum(bytes), cheapHasher).root).toBe(tree.root);
    expectSnapshotError(() => MerkleTree.restore(edit(4, 2), cheapHasher)); // version 2
    expectSnapshotError(() => MerkleTree.restore(edit(5, 0), cheapHasher)); // depth 0
    expectSnapshotError(() => MerkleTree.restore(edit(5, 31), cheapHasher)); // depth 31
    expectSnapshotError(() => MerkleTree.restore(edit(6, 1), cheapHasher)); // reserved
    expectSnapshotError(() => MerkleTree.restore(edit(8, 4), cheapHasher)); // 4 leaves claimed, 3 stored
    expectSnapshotError(() => MerkleTree.restore(edit(8, 17), cheapHasher)); // more than 2^4 leaves
    expectSnapshotError(() => MerkleTree.restore(edit(0, 0x58), cheapHasher)); // magic
  });
});

describe('ShardedTrees snapshot', () => {
  function populated(): ShardedTrees {
    const trees = new ShardedTrees(3, { depth: 10, historySize: 5, hasher: cheapHasher });
    for (let i = 0; i < 9; i++) trees.append(0, BigInt(100 + i));
    trees.appendBatch(2, [1n, 2n, 3n]);
    trees.append(2, 4n);
    return trees;
  }

  it('round trips every shard, its leaves and its root window, without hashing', () => {
    const trees = populated();
    const windows = [0, 1, 2].map((id) => trees.shard(id).recentRoots());
    expect(windows.map((w) => w.length)).toEqual([6, 1, 3]);

    const bytes = trees.snapshot();
    const counter = countingHasher(cheapHasher);
    const restored = ShardedTrees.restore(bytes, counter.hasher);
    expect(counter.calls).toBe(10); // only the zero hashes of a hasher never seen before
    counter.reset();
    expect(restored.numTrees).toBe(3);
    expect(restored.depth).toBe(10);
    expect(restored.historySize).toBe(5);
    for (const id of [0, 1, 2]) {
      expect(restored.shard(id).recentRoots()).toEqual(windows[id]);
      expect(restored.shard(id).leaves()).toEqual(trees.shard(id).leaves());
      for (const root of windows[id]!) expect(restored.isKnownRoot(id, root)).toBe(true);
    }
    expect(counter.calls).toBe(0);

    // The window keeps sliding the same way after a restore.
    trees.append(0, 999n);
    restored.append(0, 999n);
    expect(restored.shard(0).recentRoots()).toEqual(trees.shard(0).recentRoots());
    expect(restored.isKnownRoot(0, windows[0]![0]!)).toBe(false);
  });

  it('round trips lazily-recorded history (appends whose roots nobody read)', () => {
    const trees = new ShardedTrees(1, { depth: 12, hasher: cheapHasher });
    for (let i = 0; i < 100; i++) trees.append(0, BigInt(i + 1));
    const restored = ShardedTrees.restore(trees.snapshot(), cheapHasher);
    expect(restored.shard(0).recentRoots()).toEqual(trees.shard(0).recentRoots());
    expect(restored.shard(0).recentRoots()).toHaveLength(65);
  });

  it('refuses corrupt, truncated or foreign snapshots', () => {
    const bytes = populated().snapshot();
    for (let i = 0; i < bytes.length; i += 7) {
      const corrupt = Uint8Array.from(bytes);
      corrupt[i] = corrupt[i]! ^ 0x80;
      expectSnapshotError(() => ShardedTrees.restore(corrupt, cheapHasher));
    }
    expectSnapshotError(() => ShardedTrees.restore(bytes.subarray(0, bytes.length - 1), cheapHasher));
    const single = new MerkleTree(10, cheapHasher).snapshot();
    expectSnapshotError(() => ShardedTrees.restore(single, cheapHasher));
    expectSnapshotError(() => MerkleTree.restore(bytes, cheapHasher));
  });

  it('checks the history behind a valid checksum', () => {
    const trees = new ShardedTrees(1, { depth: 2, historySize: 2, hasher: cheapHasher });
    trees.append(0, 1n);
    trees.append(0, 2n);
    const bytes = trees.snapshot();
    // Shard record starts at 12: leaf count (4) + levels (2 + 1 + 1 nodes) = 132 bytes, then history length.
    const historyLengthAt = 12 + 4 + 4 * 32;
    expect(bytes[historyLengthAt]).toBe(2);
    const tooLong = Uint8Array.from(bytes);
    tooLong[historyLengthAt] = 3;
    expectSnapshotError(() => ShardedTrees.restore(withFreshChecksum(tooLong), cheapHasher));
    const outOfOrder = Uint8Array.from(bytes);
    outOfOrder[historyLengthAt + 2] = 9; // first entry claims 9 leaves; the tree has 2
    expectSnapshotError(() => ShardedTrees.restore(withFreshChecksum(outOfOrder), cheapHasher));
  });
});
