import { FIELD_MODULUS } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import { cheapHasher, countingHasher } from '../../test/helpers/hashers.js';
import { seededFieldElements } from '../../test/helpers/seeded.js';
import { MerkleTree, ROOT_HISTORY_SIZE, ShardedTrees, TreeShard, verifyMerkleProof } from './index.js';

describe('recent-root window of a shard (current + 64 previous)', () => {
  it('after 66 single appends, the last 65 roots are known and the 66th-oldest is not', () => {
    expect(ROOT_HISTORY_SIZE).toBe(64);
    const shard = new TreeShard(0);
    const leaves = seededFieldElements('window', 66);
    const roots = [shard.root]; // roots[k] = root after k appends
    for (const leaf of leaves) {
      shard.append(leaf);
      roots.push(shard.root);
    }
    const known = roots.filter((root) => shard.isKnownRoot(root));
    expect(known).toEqual(roots.slice(2)); // roots after appends 2..66: 65 of them
    expect(shard.isKnownRoot(roots[1]!)).toBe(false);
    expect(shard.isKnownRoot(roots[0]!)).toBe(false);
    expect(shard.recentRoots()).toEqual(roots.slice(2));
  });

  it('a batch of leaves is one step of the window', () => {
    const shard = new TreeShard(0, { depth: 8, historySize: 2, hasher: cheapHasher });
    const r0 = shard.root;
    expect(shard.appendBatch([1n, 2n, 3n])).toBe(0);
    const r1 = shard.root;
    expect(shard.appendBatch([4n, 5n])).toBe(3);
    const r2 = shard.root;
    expect(shard.append(6n)).toBe(5);
    const r3 = shard.root;
    expect([r0, r1, r2, r3].map((root) => shard.isKnownRoot(root))).toEqual([false, true, true, true]);
    // Intermediate roots inside a batch (e.g. after leaf 1 only) never were a root of the shard.
    const partial = new MerkleTree(8, cheapHasher);
    partial.append(1n);
    expect(shard.isKnownRoot(partial.root)).toBe(false);
  });

  it('an empty batch is not a step', () => {
    const shard = new TreeShard(0, { depth: 8, historySize: 1, hasher: cheapHasher });
    shard.append(1n);
    const before = shard.recentRoots();
    expect(shard.appendBatch([])).toBe(1);
    expect(shard.recentRoots()).toEqual(before);
  });

  it('a failed append is not a step', () => {
    const shard = new TreeShard(0, { depth: 1, historySize: 4, hasher: cheapHasher });
    shard.appendBatch([1n, 2n]);
    const before = shard.recentRoots();
    expect(() => shard.append(3n)).toThrow(expect.objectContaining({ code: 'MERKLE_TREE_FULL' }));
    expect(() => shard.appendBatch([FIELD_MODULUS])).toThrow(
      expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }),
    );
    expect(shard.recentRoots()).toEqual(before);
  });

  it('history roots of appends nobody read are computed on demand, with depth hashes each', () => {
    const counter = countingHasher(cheapHasher);
    const shard = new TreeShard(0, { depth: 20, hasher: counter.hasher });
    const reference = new MerkleTree(20, cheapHasher);
    const expected: bigint[] = [];
    for (let i = 0; i < 500; i++) {
      shard.appendBatch([BigInt(2 * i + 1), BigInt(2 * i + 2)]); // no root reads: a replay
      reference.appendMany([BigInt(2 * i + 1), BigInt(2 * i + 2)]);
      expected.push(reference.root);
    }
    counter.reset();
    expect(shard.recentRoots()).toEqual(expected.slice(-65));
    // One bulk flush (~1000 + 2·20) plus 64 historical roots at 20 hashes each.
    expect(counter.calls).toBeLessThanOrEqual(1000 + 40 + 64 * 20);
    counter.reset();
    expect(shard.isKnownRoot(expected[500 - 65]!)).toBe(true);
    expect(shard.isKnownRoot(expected[500 - 66]!)).toBe(false);
    expect(counter.calls).toBe(0); // roots are cached once computed
  });

  it('rejects non-field values as unknown roots', () => {
    const shard = new TreeShard(0, { depth: 4, hasher: cheapHasher });
    expect(shard.isKnownRoot(shard.root)).toBe(true);
    expect(shard.isKnownRoot(shard.root + FIELD_MODULUS)).toBe(false);
    expect(shard.isKnownRoot(-1n)).toBe(false);
  });
});

describe('ShardedTrees', () => {
  it('keeps shards independent, each with its own root and window', () => {
    const trees = new ShardedTrees(3, { depth: 6, hasher: cheapHasher });
    expect(trees.numTrees).toBe(3);
    const empty = trees.root(0);
    expect(trees.append(1, 11n)).toBe(0);
    expect(trees.appendBatch(2, [21n, 22n])).toBe(0);
    expect(trees.append(2, 23n)).toBe(2);
    expect(trees.root(0)).toBe(empty);
    expect(trees.size(1)).toBe(1);
    expect(trees.size(2)).toBe(3);
    expect(trees.root(1)).not.toBe(trees.root(2));
    expect(trees.isKnownRoot(1, trees.root(1))).toBe(true);
    expect(trees.isKnownRoot(1, trees.root(2))).toBe(false);
    expect(trees.isKnownRoot(2, empty)).toBe(true);
    const proof = trees.proof(2, 1);
    expect(proof.leaf).toBe(22n);
    expect(verifyMerkleProof(proof.leaf, 1, proof.siblings, trees.root(2), cheapHasher)).toBe(true);
    expect(trees.shard(2).leaves()).toEqual([21n, 22n, 23n]);
    expect(trees.shard(2).indexOf(23n)).toBe(2);
  });

  it('default shards are depth 20 with a 64-root history', () => {
    const trees = new ShardedTrees(2);
    expect(trees.depth).toBe(20);
    expect(trees.historySize).toBe(64);
    expect(trees.shard(1).treeId).toBe(1);
    expect(trees.root(0)).toBe(new MerkleTree().root);
  });

  it('unknown tree ids throw a typed error', () => {
    const trees = new ShardedTrees(2, { depth: 4, hasher: cheapHasher });
    for (const treeId of [-1, 2, 1.5, Number.NaN]) {
      expect(() => trees.root(treeId)).toThrow(expect.objectContaining({ code: 'MERKLE_UNKNOWN_TREE' }));
    }
    expect(() => new ShardedTrees(0)).toThrow(expect.objectContaining({ code: 'VALUE_OUT_OF_RANGE' }));
  });
});
