/**
 * A note's inclusion path against its shard's finalized root, from the engine's tree mirror. Only
 * a change note's re-proof uses it (change-locks.ts: the ledger refused the root its first
 * VALID_LOCK named, which ran ahead of finality): the mirror holds finalized leaves only, so it
 * waits for the mirror to apply the leaf, driven by the mirror's leaf events and bounded by a slot
 * deadline, never by polling.
 */
import type { MerkleProof } from '@nightjar/crypto';
import type { ChainView } from '../chain-view.js';
import type { TreeMirror } from '../tree-mirror.js';

export type PathMirror = Pick<TreeMirror, 'shard' | 'isDiverged' | 'onLeaves' | 'onReset'>;

export class InputPathError extends Error {
  override readonly name = 'InputPathError';
}

/** The note's path against its shard's current root, or undefined when the leaf is not there yet. */
export function currentPath(
  trees: PathMirror,
  treeId: number,
  commitmentHex: string,
): MerkleProof | undefined {
  const shard = trees.shard(treeId);
  if (!shard || trees.isDiverged(treeId)) return undefined;
  const index = shard.indexOf(BigInt('0x' + commitmentHex));
  return index === undefined ? undefined : shard.proof(index);
}

/**
 * Resolves with the note's path once its leaf is in the mirror (at once if it is); rejects when
 * the chain reaches `deadlineSlot` first or `signal` aborts.
 */
export function inputPath(
  trees: PathMirror,
  chain: Pick<ChainView, 'slot' | 'onSlot'>,
  treeId: number,
  commitmentHex: string,
  deadlineSlot: number,
  signal?: AbortSignal,
): Promise<MerkleProof> {
  const now = currentPath(trees, treeId, commitmentHex);
  if (now) return Promise.resolve(now);
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (chain.slot >= deadlineSlot)
    return Promise.reject(new InputPathError('input note not in the tree mirror before its deadline'));
  return new Promise<MerkleProof>((resolve, reject) => {
    const offs: (() => void)[] = [];
    const done = (settle: () => void) => {
      for (const off of offs.splice(0)) off();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const retry = () => {
      const path = currentPath(trees, treeId, commitmentHex);
      if (path) done(() => resolve(path));
    };
    const onAbort = () => done(() => reject(signal!.reason));
    offs.push(
      trees.onLeaves((applied) => {
        if (applied.treeId === treeId) retry();
      }),
      trees.onReset((t) => {
        if (t === treeId) retry();
      }),
      chain.onSlot((slot) => {
        // A diverged shard that a resync repaired announces nothing new: look again each slot.
        retry();
        if (slot >= deadlineSlot)
          done(() => reject(new InputPathError('input note not in the tree mirror before its deadline')));
      }),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
