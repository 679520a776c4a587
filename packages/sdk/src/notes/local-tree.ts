/**
 * The wallet's own copy of the note trees: inclusion paths for its splits, merges and withdrawals
 * are built here from the ledger's public leaves (`getLeaves`), never asked of the venue by
 * commitment (issue 30: such a request tells the venue which notes the account holds). One tree
 * per shard the wallet actually proves against, in memory for the wallet's life; a fresh process
 * reads that shard's leaves once.
 */
import { MerkleTree } from '@nightjar/crypto';
import { LEAVES_PAGE_CAP } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { sleep } from '../core/utils/backoff.js';
import type { Wallet, WalletNote } from '../wallet/wallet.js';
import { NIGHTJAR_ERROR__PROOF, NightjarError } from '../core/errors/index.js';

const trees = new WeakMap<Wallet, Map<number, MerkleTree>>();
/** Each shard's catch-up in progress (the tail of its queue). */
const syncing = new WeakMap<Wallet, Map<string, Promise<MerkleTree>>>();

function shardTree(wallet: Wallet, treeId: number): MerkleTree {
  let byShard = trees.get(wallet);
  if (!byShard) trees.set(wallet, (byShard = new Map()));
  let tree = byShard.get(treeId);
  if (!tree) byShard.set(treeId, (tree = new MerkleTree()));
  return tree;
}

/** Leaves of a shard read so far by the wallet's local tree (0 when it has none yet). */
export function localTreeSize(wallet: Wallet, treeId: number): number {
  return trees.get(wallet)?.get(treeId)?.size ?? 0;
}

/**
 * Brings the local tree of `treeId` up to the ledger's current leaf count (public reads that name
 * no note: `getTreeRoot`, `getLeaves` pages), recording the leaves in the wallet too. Returns the
 * tree; its root is then one the shard had (the ledger accepts any such root for join-splits and
 * withdrawals).
 */
export function syncLocalTree(client: Client, treeId: number): Promise<MerkleTree> {
  // One catch-up per shard at a time: concurrent ones would append the same leaves twice.
  const key = `${treeId}`;
  let byShard = syncing.get(client.wallet);
  if (!byShard) syncing.set(client.wallet, (byShard = new Map()));
  const run = (byShard.get(key) ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => catchUp(client, treeId));
  byShard.set(key, run);
  return run;
}

async function catchUp(client: Client, treeId: number): Promise<MerkleTree> {
  const tree = shardTree(client.wallet, treeId);
  const { leaf_count } = await client.ledger.getTreeRoot({ tree_id: treeId });
  while (tree.size < leaf_count) {
    const from = tree.size;
    const to = Math.min(leaf_count, from + LEAVES_PAGE_CAP);
    const { leaves } = await client.ledger.getLeaves({ tree_id: treeId, from, to });
    if (leaves.length === 0) break;
    if (tree.size !== from) continue; // a sync fed these leaves meanwhile
    tree.appendMany(leaves.map((l) => BigInt('0x' + l.value)));
    client.wallet.addLeaves(
      treeId,
      from,
      leaves.map((l) => l.value),
    );
  }
  return tree;
}

/**
 * Leaves `[from, from + values.length)` of `treeId` that a sync read anyway: appended to the local
 * tree when it exists and ends at `from`, so a proof after a sync reads no leaf again.
 */
export function feedLocalTree(wallet: Wallet, treeId: number, from: number, values: readonly string[]): void {
  const tree = trees.get(wallet)?.get(treeId);
  if (tree && tree.size === from) tree.appendMany(values.map((v) => BigInt('0x' + v)));
}

/** A note's inclusion path in the local tree and the root it leads to. */
export interface LocalInclusion {
  leafIndex: number;
  siblings: bigint[];
  merkleRoot: bigint;
}

/**
 * `note`'s inclusion path, built locally against a root the ledger accepts: the local tree is
 * caught up, then its root must be in the shard's root window (`getRootWindow`, which ends with the
 * current root), else the leaves read disagree with the ledger's tree and no proof is made.
 */
export async function localInclusion(client: Client, note: WalletNote): Promise<LocalInclusion> {
  const tree = await syncLocalTree(client, note.treeId);
  const leafIndex = note.leafIndex ?? client.wallet.leaves.get(note.commitment)?.leafIndex;
  const commitment = BigInt('0x' + note.commitment);
  if (leafIndex === undefined || leafIndex >= tree.size || tree.leaf(leafIndex) !== commitment)
    throw new NightjarError(NIGHTJAR_ERROR__PROOF, {
      detail: `note ${note.commitment} is not among shard ${note.treeId}'s leaves yet`,
    });
  const proof = tree.proof(leafIndex);
  const { roots } = await client.ledger.getRootWindow({ tree_id: note.treeId });
  const root = proof.root.toString(16).padStart(64, '0');
  if (!roots.includes(root))
    throw new NightjarError(NIGHTJAR_ERROR__PROOF, {
      detail: `the leaves read for shard ${note.treeId} lead to a root the ledger's window lacks`,
    });
  return { leafIndex, siblings: proof.siblings, merkleRoot: proof.root };
}

/**
 * Waits (bounded) until every note of `notes` is among the ledger's leaves as the local trees read
 * them (public leaf reads that name no note): a join-split or a withdrawal can then prove it at
 * once, finalized or not, since the ledger accepts any root its shard had.
 */
export async function waitForLedgerLeaves(
  client: Client,
  notes: readonly WalletNote[],
  options: { waitMs?: number; pollMs?: number } = {},
): Promise<{ usable: boolean; waitedMs: number; has: (n: WalletNote) => boolean }> {
  const waitMs = options.waitMs ?? 20_000;
  const start = Date.now();
  for (;;) {
    const sizes = new Map<number, number>();
    for (const treeId of new Set(notes.map((n) => n.treeId)))
      sizes.set(treeId, (await syncLocalTree(client, treeId)).size);
    const has = (n: WalletNote) => {
      const leafIndex = n.leafIndex ?? client.wallet.leaves.get(n.commitment)?.leafIndex;
      return leafIndex !== undefined && leafIndex < (sizes.get(n.treeId) ?? 0);
    };
    const waitedMs = Date.now() - start;
    if (notes.every(has)) return { usable: true, waitedMs, has };
    if (waitedMs >= waitMs) return { usable: false, waitedMs, has };
    await sleep(Math.min(options.pollMs ?? client.slotMs, waitMs - waitedMs));
  }
}
