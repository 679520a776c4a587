/** The wallet's copy of the ledger: its deposits found again from the seed, and the tree's leaves, shard by shard. */
import { LEAVES_PAGE_CAP } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { feedLocalTree } from './local-tree.js';

/** The ledger's page size for `getDeposits`. */
const DEPOSIT_PAGE = 1_000;

/**
 * Finds this wallet's deposit notes on the ledger alone: the funding key's landed deposits
 * (`getDeposits`) show mint, amount and commitment, and the deposit index whose seed-derived inner
 * recomputes that commitment makes it ours. Indices are used in order, so the search starts after
 * the last one found. Returns how many notes it added.
 */
export async function recoverDeposits(client: Client): Promise<number> {
  const wallet = client.wallet;
  let added = 0;
  let next = 0;
  for (let from = 0; ;) {
    const { deposits } = await client.ledger.getDeposits({ owner: wallet.keys.funding.address, from });
    for (const d of deposits) {
      const bound = Math.max(wallet.depositCount, next + 1);
      if (wallet.notes.has(d.note_commitment)) continue;
      for (let k = 0; k < bound; k++) {
        const index = (next + k) % bound;
        const { note } = wallet.depositNote(index, d.mint, BigInt(d.amount), d.tree_id);
        if (note.commitment !== d.note_commitment) continue;
        wallet.addNote({ ...note, leafIndex: d.leaf_index });
        wallet.leaves.set(note.commitment, { treeId: d.tree_id, leafIndex: d.leaf_index });
        next = index + 1;
        added++;
        break;
      }
    }
    if (deposits.length < DEPOSIT_PAGE) return added;
    from += deposits.length;
  }
}

/** Reads the ledger's new leaves of every shard into the wallet. */
export async function syncLeaves(client: Client): Promise<number> {
  const vault = await client.ledger.getVault({});
  let added = 0;
  for (let treeId = 0; treeId < vault.num_trees; treeId++) added += await syncShard(client, treeId);
  return added;
}

/**
 * Reads one shard's leaves the wallet lacks into it: from the wallet's known leaf count up to the
 * ledger's, page by page. Returns how many it read.
 */
export async function syncShard(client: Client, treeId: number): Promise<number> {
  const wallet = client.wallet;
  const root = await client.ledger.getTreeRoot({ tree_id: treeId });
  let from = wallet.leafCounts.get(treeId) ?? 0;
  let added = 0;
  while (from < root.leaf_count) {
    const to = Math.min(root.leaf_count, from + LEAVES_PAGE_CAP);
    const { leaves } = await client.ledger.getLeaves({ tree_id: treeId, from, to });
    if (leaves.length === 0) break;
    const values = leaves.map((l) => l.value);
    wallet.addLeaves(treeId, from, values);
    feedLocalTree(wallet, treeId, from, values);
    from += leaves.length;
    added += leaves.length;
  }
  return added;
}
