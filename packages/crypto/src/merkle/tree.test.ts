import { FIELD_MODULUS } from '@nightjar/protocol';
import { poseidon2 as lite2 } from 'poseidon-lite/poseidon2';
import { describe, expect, it } from 'vitest';
import { cheapHasher, countingHasher } from '../../test/helpers/hashers.js';
import { seededFieldElements } from '../../test/helpers/seeded.js';
import { isCryptoError } from '../errors.js';
import {
  MerkleTree,
  TREE_DEPTH,
  computeMerkleRoot,
  pathIndicesOf,
  verifyMerkleProof,
  zeroHashes,
} from './index.js';

// Reference hashing goes through poseidon-lite directly, not through our optimised permutation.
const node = (left: bigint, right: bigint): bigint => lite2([left, right]);

/** Root of `leaves` at `depth`, recursively, using the fact that an empty subtree's hash is zero[level]. */
function naiveRoot(leaves: readonly bigint[], depth: number, hash = node): bigint {
  const zeros = [0n];
  for (let l = 0; l < depth; l++) zeros.push(hash(zeros[l]!, zeros[l]!));
  const subtree = (level: number, index: number): bigint => {
    if (index * 2 ** level >= leaves.length) return zeros[level]!;
    if (level === 0) return leaves[index]!;
    return hash(subtree(level - 1, 2 * index), subtree(level - 1, 2 * index + 1));
  };
  return subtree(depth, 0);
}

/** Root of a small tree computed the textbook way: pad to 2^depth leaves and hash pairwise. */
function paddedRoot(leaves: readonly bigint[], depth: number): bigint {
  let level = [...leaves, ...new Array<bigint>(2 ** depth - leaves.length).fill(0n)];
  while (level.length > 1)
    level = level.flatMap((_, i) => (i % 2 === 0 ? [node(level[i]!, level[i + 1]!)] : []));
  return level[0]!;
}

const leaves300 = seededFieldElements('merkle-leaves', 300);
const indexError = expect.objectContaining({ code: 'MERKLE_LEAF_INDEX' });

describe('zero hashes and the empty tree', () => {
  it('zero[0] = 0 and zero[l+1] = Poseidon(zero[l], zero[l])', () => {
    const zeros = zeroHashes(TREE_DEPTH);
    expect(zeros).toHaveLength(TREE_DEPTH + 1);
    expect(zeros[0]).toBe(0n);
    for (let l = 0; l < TREE_DEPTH; l++) expect(zeros[l + 1]).toBe(node(zeros[l]!, zeros[l]!));
  });

  it('an empty depth-20 tree has root zero[20] and size 0', () => {
    const tree = new MerkleTree();
    expect(tree.depth).toBe(20);
    expect(tree.capacity).toBe(2 ** 20);
    expect(tree.size).toBe(0);
    expect(tree.root).toBe(zeroHashes(20)[20]);
  });
});

describe('roots match reference computations', () => {
  it('depth 4, sizes 0..16, against the padded textbook tree', () => {
    const leaves = seededFieldElements('depth4', 16);
    const tree = new MerkleTree(4);
    expect(tree.root).toBe(paddedRoot([], 4));
    for (let n = 1; n <= 16; n++) {
      tree.append(leaves[n - 1]!);
      expect(tree.root).toBe(paddedRoot(leaves.slice(0, n), 4));
    }
  });

  it('depth 20, sizes 1..33 appended one at a time', () => {
    const tree = new MerkleTree();
    for (let n = 1; n <= 33; n++) {
      tree.append(leaves300[n - 1]!);
      expect(tree.root).toBe(naiveRoot(leaves300.slice(0, n), 20));
    }
  });

  it('depth 20, a batch of 300 equals the one-by-one tree and the reference', () => {
    const batch = new MerkleTree();
    expect(batch.appendMany(leaves300.slice(0, 100))).toBe(0);
    expect(batch.appendMany(leaves300.slice(100))).toBe(100);
    expect(batch.root).toBe(naiveRoot(leaves300, 20));
  });

  it('zero-valued leaves are real leaves (size grows) but leave the root unchanged', () => {
    const tree = new MerkleTree(4);
    tree.append(5n);
    const root = tree.root;
    tree.append(0n);
    expect(tree.size).toBe(2);
    expect(tree.root).toBe(root);
  });
});

describe('inclusion proofs', () => {
  const tree = new MerkleTree();
  tree.appendMany(leaves300);
  const root = tree.root;

  it('verify for every index of a 300-leaf tree (by index; by path bits for a sample)', () => {
    for (let i = 0; i < leaves300.length; i++) {
      const proof = tree.proof(i);
      expect(proof.leafIndex).toBe(i);
      expect(proof.leaf).toBe(leaves300[i]);
      expect(proof.root).toBe(root);
      expect(proof.siblings).toHaveLength(20);
      expect(proof.pathIndices).toEqual(pathIndicesOf(i, 20));
      expect(verifyMerkleProof(proof.leaf, i, proof.siblings, root)).toBe(true);
      // Same fold by path bits; sampled, since it repeats the work above.
      if (i % 10 === 0)
        expect(verifyMerkleProof(proof.leaf, proof.pathIndices, proof.siblings, root)).toBe(true);
    }
  });

  it('path bits are little-endian with 1 = right child', () => {
    expect(tree.proof(0).pathIndices.slice(0, 3)).toEqual([0, 0, 0]);
    expect(tree.proof(1).pathIndices.slice(0, 3)).toEqual([1, 0, 0]);
    expect(tree.proof(6).pathIndices.slice(0, 4)).toEqual([0, 1, 1, 0]);
    expect(tree.proof(299).pathIndices.slice(0, 10)).toEqual([1, 1, 0, 1, 0, 1, 0, 0, 1, 0]);
  });

  it('fold with plain poseidon-lite to the same root (independent of our verifier)', () => {
    for (const i of [0, 1, 2, 255, 256, 299]) {
      const { siblings, pathIndices } = tree.proof(i);
      expect(computeMerkleRoot(leaves300[i]!, pathIndices, siblings, node)).toBe(root);
    }
  });

  it('fail for every index when the leaf, a sibling, the position or the root is tampered', () => {
    for (let i = 0; i < leaves300.length; i++) {
      const { leaf, siblings } = tree.proof(i);
      const level = i % 20;
      switch (i % 4) {
        case 0: {
          expect(verifyMerkleProof((leaf + 1n) % FIELD_MODULUS, i, siblings, root)).toBe(false);
          break;
        }
        case 1: {
          const tampered = [...siblings];
          tampered[level] = (tampered[level]! + 1n) % FIELD_MODULUS;
          expect(verifyMerkleProof(leaf, i, tampered, root)).toBe(false);
          break;
        }
        case 2: {
          expect(verifyMerkleProof(leaf, i ^ (1 << level), siblings, root)).toBe(false);
          break;
        }
        default:
          expect(verifyMerkleProof(leaf, i, siblings, (root + 1n) % FIELD_MODULUS)).toBe(false);
      }
    }
  });

  it('reject malformed proofs with false, not a throw', () => {
    const { leaf, siblings, pathIndices } = tree.proof(7);
    expect(verifyMerkleProof(leaf, 7, siblings.slice(0, 19), root)).toBe(false);
    expect(verifyMerkleProof(leaf, pathIndices.slice(1), siblings, root)).toBe(false);
    expect(verifyMerkleProof(leaf, [2, ...pathIndices.slice(1)], siblings, root)).toBe(false);
    expect(verifyMerkleProof(leaf, 2 ** 20 + 7, siblings, root)).toBe(false);
    expect(verifyMerkleProof(leaf, -1, siblings, root)).toBe(false);
    expect(verifyMerkleProof(leaf, 7.5, siblings, root)).toBe(false);
    expect(verifyMerkleProof(leaf + FIELD_MODULUS, 7, siblings, root)).toBe(false);
    expect(verifyMerkleProof(leaf, 7, [FIELD_MODULUS, ...siblings.slice(1)], root)).toBe(false);
    expect(verifyMerkleProof(leaf, 7, [], root)).toBe(false);
  });

  it('proofs of one tree do not verify against an older root', () => {
    const older = new MerkleTree();
    older.appendMany(leaves300.slice(0, 299));
    const { siblings } = tree.proof(10);
    expect(verifyMerkleProof(leaves300[10]!, 10, siblings, older.root)).toBe(false);
  });
});

describe('cost of appends', () => {
  it('one append then a root read costs exactly depth hashes (real Poseidon)', () => {
    const counter = countingHasher(node);
    const tree = new MerkleTree(20, counter.hasher);
    for (let i = 0; i < 12; i++) {
      counter.reset();
      tree.append(leaves300[i]!);
      expect(tree.root).toBe(naiveRoot(leaves300.slice(0, i + 1), 20));
      // naiveRoot does not use the counter, so this counts the tree alone.
      expect(counter.calls).toBe(20);
    }
  });

  it('stays at <= depth hashes per append over 3000 appends (linear, not quadratic)', () => {
    const counter = countingHasher(cheapHasher);
    const tree = new MerkleTree(20, counter.hasher);
    counter.reset();
    let worst = 0;
    for (let i = 0; i < 3000; i++) {
      const before = counter.calls;
      tree.append(BigInt(i + 1));
      void tree.root;
      void tree.proof(i);
      worst = Math.max(worst, counter.calls - before);
    }
    expect(worst).toBeLessThanOrEqual(20);
    expect(counter.calls).toBe(3000 * 20);
  });

  it('a bulk load hashes each internal node about once: n + 2·depth for n leaves', () => {
    const counter = countingHasher(cheapHasher);
    const tree = new MerkleTree(20, counter.hasher);
    counter.reset();
    for (let i = 0; i < 10_000; i++) tree.append(BigInt(i + 1));
    expect(counter.calls).toBe(0);
    void tree.root;
    expect(counter.calls).toBeLessThanOrEqual(10_000 + 2 * 20);
    const reference = new MerkleTree(20, cheapHasher);
    reference.appendMany(Array.from({ length: 10_000 }, (_, i) => BigInt(i + 1)));
    expect(tree.root).toBe(reference.root);
  });
});

describe('rootAt', () => {
  it('gives the root the tree had at every earlier size', () => {
    const tree = new MerkleTree(10, cheapHasher);
    const seen = [tree.root];
    for (let i = 0; i < 100; i++) {
      tree.appendMany(Array.from({ length: (i % 3) + 1 }, (_, k) => BigInt(1000 * i + k + 1)));
      seen[tree.size] = tree.root;
    }
    seen.forEach((root, size) => {
      if (root !== undefined) expect(tree.rootAt(size)).toBe(root);
    });
    expect(() => tree.rootAt(tree.size + 1)).toThrow(indexError);
    expect(() => tree.rootAt(-1)).toThrow(indexError);
  });

  it('matches the reference with real Poseidon', () => {
    const tree = new MerkleTree();
    tree.appendMany(leaves300.slice(0, 40));
    for (const size of [0, 1, 7, 8, 31, 39])
      expect(tree.rootAt(size)).toBe(naiveRoot(leaves300.slice(0, size), 20));
  });
});

describe('leaves and lookups', () => {
  const tree = new MerkleTree(8, cheapHasher);
  const values = seededFieldElements('lookup', 50);
  tree.appendMany(values);

  it('reads leaves by index and by range', () => {
    expect(tree.leaf(0)).toBe(values[0]);
    expect(tree.leaf(49)).toBe(values[49]);
    expect(tree.leaves(10, 13)).toEqual(values.slice(10, 13));
    expect(tree.leaves(45, 1000)).toEqual(values.slice(45));
    expect(tree.leaves()).toEqual(values);
    expect(() => tree.leaf(50)).toThrow(indexError);
    expect(() => tree.leaf(-1)).toThrow(indexError);
    expect(() => tree.proof(50)).toThrow(indexError);
  });

  it('indexOf finds every leaf, the first of duplicates, and keeps up with appends', () => {
    values.forEach((value, i) => expect(tree.indexOf(value)).toBe(i));
    expect(tree.indexOf(123n)).toBeUndefined();
    const index = tree.append(values[3]!);
    expect(tree.indexOf(values[3]!)).toBe(3);
    // Same low 30 bits (the lookup key) as values[5], different value: must not be confused with it.
    const lookalike = (values[5]! + (1n << 48n)) % FIELD_MODULUS;
    expect(tree.indexOf(lookalike)).toBeUndefined();
    const lookalikeIndex = tree.append(lookalike);
    expect(tree.indexOf(lookalike)).toBe(lookalikeIndex);
    expect(tree.indexOf(values[5]!)).toBe(5);
    expect(index).toBe(50);
  });
});

describe('capacity and input checks', () => {
  it('a full tree refuses appends with a typed error', () => {
    const tree = new MerkleTree(3, cheapHasher);
    for (let i = 0; i < 8; i++) expect(tree.append(BigInt(i))).toBe(i);
    const root = tree.root;
    let caught: unknown;
    try {
      tree.append(99n);
    } catch (err) {
      caught = err;
    }
    expect(isCryptoError(caught, 'MERKLE_TREE_FULL')).toBe(true);
    expect(tree.size).toBe(8);
    expect(tree.root).toBe(root);
  });

  it('appendMany is all or nothing', () => {
    const tree = new MerkleTree(3, cheapHasher);
    tree.appendMany([1n, 2n, 3n, 4n, 5n]);
    expect(() => tree.appendMany([6n, 7n, 8n, 9n])).toThrow(
      expect.objectContaining({ code: 'MERKLE_TREE_FULL' }),
    );
    expect(() => tree.appendMany([6n, FIELD_MODULUS])).toThrow(
      expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }),
    );
    expect(tree.size).toBe(5);
    expect(tree.appendMany([6n, 7n, 8n])).toBe(5);
    expect(tree.size).toBe(8);
  });

  it('leaves must be field elements', () => {
    const tree = new MerkleTree(4);
    for (const bad of [FIELD_MODULUS, -1n, 3 as unknown as bigint]) {
      expect(() => tree.append(bad)).toThrow(expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }));
    }
    expect(tree.size).toBe(0);
  });

  it('depth must be an integer in 1..30', () => {
    for (const depth of [0, 31, 2.5]) {
      expect(() => new MerkleTree(depth)).toThrow(expect.objectContaining({ code: 'VALUE_OUT_OF_RANGE' }));
    }
  });
});
