import { LEAVES_PAGE_CAP } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { feedLocalTree } from '../notes/local-tree.js';
import { marketMints } from './mint-decimals.js';
import { refreshNoteStates } from './note-states.js';
import { refreshTrackedOrders } from './refresh-order.js';

const MEMO_PAGE = 10_000;

/** Options of `syncWallet`. */
export interface SyncWalletParameters {
  /** Also re-read every tracked live order with `GET /orders/{id}` (default false). */
  refreshOrders?: boolean;
}

/** What a sync read and stored. */
export interface SyncWalletReturnType {
  /** Leaves read from the ledger. */
  newLeaves: number;
  /** Memos scanned, and those stored (ours and verified). */
  memosScanned: number;
  memosStored: number;
  /** Unspent notes after the sync. */
  notes: number;
}

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

/**
 * Brings the wallet up to date from the ledger alone: new tree leaves, every memo since the last
 * scan (fill memos of settlements and note memos of its own splits and merges, trial-decrypted
 * with the viewing key; stored only when every output recomputes to a leaf), the wallet's own
 * deposits (`recoverDeposits`), and the state of every unspent note from the chain's own spent set
 * and live locks (`refreshNoteStates`: no request names a nullifier of the wallet, so nothing ties
 * its notes to the funding address that `getDeposits` names). On a wallet made from a seed and nothing else this is the recovery: every
 * deposit, every settlement output and every split or merge output comes back.
 *
 * @example
 * await syncWallet(client);
 */
export async function syncWallet(
  client: Client,
  params: SyncWalletParameters = {},
): Promise<SyncWalletReturnType> {
  const wallet = client.wallet;
  // Each deposit takes at least one funding-key nonce (a fresh key's is ground higher): never
  // reuse a deposit index, even from a bare seed.
  const funded = await client.ledger.getNonce({ signer: wallet.keys.funding.address });
  if (funded !== null && BigInt(funded) > BigInt(wallet.depositCount)) wallet.depositCount = Number(funded);
  const newLeaves = await syncLeaves(client);
  await recoverDeposits(client);
  const mints = await marketMints(client);
  let scanned = 0;
  let stored = 0;
  for (;;) {
    const from = wallet.memoCursor;
    const { memos } = await client.ledger.getMemos({ from, to: from + MEMO_PAGE });
    if (memos.length === 0) break;
    let cursor = from;
    let blocked = false;
    for (const m of memos) {
      scanned++;
      // A join-split's note memo lists its outputs; a settlement's fill memo derives them.
      const r = m.kind === 'note' ? wallet.ingestNoteMemo(m.memo) : wallet.ingestMemo(m.memo, mints);
      if (r.status === 'stored') stored++;
      // An output not yet among the leaves: rescan from here next time. (An orphan, whose outputs
      // derive from no note of ours, is passed: memos are read in ledger order, so a parent, be it
      // a fill's or a split's output, is always stored before its children unless an earlier memo
      // blocked.)
      if (r.status === 'unverified') blocked = true;
      if (!blocked) cursor = m.index + 1;
    }
    wallet.memoCursor = cursor;
    if (blocked || memos.length < MEMO_PAGE) break;
  }
  // Every note not known spent, `spending` ones included: the chain alone says spent.
  await refreshNoteStates(client, wallet.unspentNotes());
  try {
    if (params.refreshOrders) await refreshTrackedOrders(client);
  } finally {
    wallet.save();
  }
  return { newLeaves, memosScanned: scanned, memosStored: stored, notes: wallet.unspentNotes().length };
}
