/** The hash of an empty subtree at every level: zero[0] = 0 (the zero leaf), zero[l+1] = H(zero[l], zero[l]). */
import { poseidonT3Unchecked } from '../poseidon-unchecked.js';

/** Hash of a node from its two children. Merkle nodes are Poseidon(left, right), no domain tag. */
export type NodeHasher = (left: bigint, right: bigint) => bigint;

/**
 * The venue's Merkle node hash, Poseidon(left, right). The tree only feeds it values it has already
 * range-checked, so it uses the unchecked permutation; outside callers use `poseidon2`.
 */
export const defaultNodeHasher: NodeHasher = poseidonT3Unchecked;

export const TREE_DEPTH = 20;
export const MAX_TREE_DEPTH = 30;

const cache = new WeakMap<NodeHasher, bigint[]>();

/** zero[0..depth] for `hasher`; computed once per hasher and extended on demand. */
export function zeroHashes(depth: number, hasher: NodeHasher = defaultNodeHasher): readonly bigint[] {
  let zeros = cache.get(hasher);
  if (!zeros) {
    zeros = [0n];
    cache.set(hasher, zeros);
  }
  while (zeros.length <= depth) {
    const below = zeros[zeros.length - 1]!;
    zeros.push(hasher(below, below));
  }
  return zeros.slice(0, depth + 1);
}
