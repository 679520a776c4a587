/** Inclusion proofs: 20 siblings leaf to root, and path bits as the circuits take them. */
import { isFieldElement } from '../field.js';
import { type NodeHasher, MAX_TREE_DEPTH, defaultNodeHasher } from './zeros.js';

export interface MerkleProof {
  leafIndex: number;
  leaf: bigint;
  /** The root the proof leads to (the tree's root when the proof was made). */
  root: bigint;
  /** Sibling at each level, leaf level first. */
  siblings: bigint[];
  /** pathIndices[i] = bit i of leafIndex (least significant first); 1 = current node is the right child. */
  pathIndices: number[];
}

/** Bits of `index`, least significant first, `depth` of them. */
export function pathIndicesOf(index: number, depth: number): number[] {
  const bits: number[] = [];
  for (let level = 0, rest = index; level < depth; level++, rest = Math.floor(rest / 2)) bits.push(rest % 2);
  return bits;
}

/**
 * Folds a leaf up its path. Inputs must already be valid (field elements, bits 0/1, equal
 * lengths); `verifyMerkleProof` checks them.
 */
export function computeMerkleRoot(
  leaf: bigint,
  pathIndices: readonly number[],
  siblings: readonly bigint[],
  hasher: NodeHasher = defaultNodeHasher,
): bigint {
  let node = leaf;
  for (let level = 0; level < siblings.length; level++) {
    const sibling = siblings[level]!;
    node = pathIndices[level] === 1 ? hasher(sibling, node) : hasher(node, sibling);
  }
  return node;
}

/**
 * True when `leaf` sits at the given position under `root`. The position is a leaf index or the
 * path bits; the depth is `siblings.length`. Any malformed input gives false, never a throw.
 */
export function verifyMerkleProof(
  leaf: bigint,
  indexOrPathIndices: number | readonly number[],
  siblings: readonly bigint[],
  root: bigint,
  hasher: NodeHasher = defaultNodeHasher,
): boolean {
  const depth = siblings.length;
  if (depth < 1 || depth > MAX_TREE_DEPTH) return false;
  if (!isFieldElement(leaf) || !isFieldElement(root) || !siblings.every(isFieldElement)) return false;
  let path: readonly number[];
  if (typeof indexOrPathIndices === 'number') {
    const index = indexOrPathIndices;
    if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** depth) return false;
    path = pathIndicesOf(index, depth);
  } else {
    if (indexOrPathIndices.length !== depth) return false;
    if (!indexOrPathIndices.every((bit) => bit === 0 || bit === 1)) return false;
    path = indexOrPathIndices;
  }
  return computeMerkleRoot(leaf, path, siblings, hasher) === root;
}
