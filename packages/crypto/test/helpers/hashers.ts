/** Node hashers for Merkle tests: a cheap stand-in for big trees, and a call counter. */
import { FIELD_MODULUS } from '@nightjar/protocol';
import type { NodeHasher } from '../../src/merkle/index.js';

/** Order-sensitive and cheap; not a hash, but enough to exercise tree bookkeeping at scale. */
export const cheapHasher: NodeHasher = (left, right) =>
  (left * 0x9e3779b97f4a7c15n + right * 0xc2b2ae3d27d4eb4fn + 1n) % FIELD_MODULUS;

export interface CountingHasher {
  hasher: NodeHasher;
  readonly calls: number;
  reset(): void;
}

export function countingHasher(inner: NodeHasher): CountingHasher {
  let calls = 0;
  return {
    hasher: (left, right) => {
      calls++;
      return inner(left, right);
    },
    get calls() {
      return calls;
    },
    reset() {
      calls = 0;
    },
  };
}
