import type { Client } from '../client.js';
import { recoverDeposits, syncLeaves } from '../notes/ledger-sync.js';
import { marketMints } from '../core/mint-decimals.js';
import { refreshNoteStates } from '../notes/note-states.js';
import { refreshTrackedOrders } from '../orders/refresh-order.js';
import type { NightjarError } from '../core/errors/index.js';

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

/** What `syncWallet` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type SyncWalletErrorType = NightjarError;
