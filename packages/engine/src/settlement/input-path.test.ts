import { describe, expect, it } from 'vitest';
import { TreeShard } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import type { AppliedLeaves } from '../tree-mirror.js';
import { inputPath, InputPathError, type PathMirror } from './input-path.js';

/** A one-shard mirror and chain whose leaves and slots the test applies by hand. */
function fakes() {
  const tree = new TreeShard(0);
  const leafListeners = new Set<(l: AppliedLeaves) => void>();
  const slotListeners = new Set<(s: number) => void>();
  const trees: PathMirror = {
    shard: (t) => (t === 0 ? tree : undefined),
    isDiverged: () => false,
    onLeaves: (l) => (leafListeners.add(l), () => leafListeners.delete(l)),
    onReset: () => () => undefined,
  };
  const chain = {
    slot: 10,
    onSlot: (l: (s: number) => void) => (slotListeners.add(l), () => slotListeners.delete(l)),
  };
  return {
    tree,
    trees,
    chain,
    append(leaf: bigint) {
      tree.appendBatch([leaf]);
      for (const l of [...leafListeners])
        l({ treeId: 0, firstLeafIndex: tree.size - 1, values: [fieldToHex(leaf)], merkleRoot: '', slot: 1 });
    },
    slot(s: number) {
      chain.slot = s;
      for (const l of [...slotListeners]) l(s);
    },
    listeners: () => leafListeners.size + slotListeners.size,
  };
}

describe('input paths from the tree mirror', () => {
  it('a leaf already there: its path against the newest root, at once', async () => {
    const f = fakes();
    f.tree.appendBatch([5n, 6n]);
    const path = await inputPath(f.trees, f.chain, 0, fieldToHex(6n), 100);
    expect([path.leafIndex, path.root]).toEqual([1, f.tree.root]);
  });

  it('waits for the mirror to apply the leaf, then unsubscribes', async () => {
    const f = fakes();
    const waiting = inputPath(f.trees, f.chain, 0, fieldToHex(7n), 100);
    f.append(3n);
    f.slot(11);
    f.append(7n);
    const path = await waiting;
    expect([path.leafIndex, path.root]).toEqual([1, f.tree.root]);
    expect(f.listeners()).toBe(0);
  });

  it('gives up at its deadline slot, or when aborted', async () => {
    const f = fakes();
    const late = inputPath(f.trees, f.chain, 0, fieldToHex(7n), 12);
    f.slot(11);
    f.slot(12);
    await expect(late).rejects.toBeInstanceOf(InputPathError);
    const ctrl = new AbortController();
    const aborted = inputPath(f.trees, f.chain, 0, fieldToHex(7n), 100, ctrl.signal);
    ctrl.abort(new Error('match rejected'));
    await expect(aborted).rejects.toThrow('match rejected');
    expect(f.listeners()).toBe(0);
    await expect(inputPath(f.trees, f.chain, 0, fieldToHex(7n), 12)).rejects.toBeInstanceOf(InputPathError);
  });
});
