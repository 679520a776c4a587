/**
 * Storing a decrypted fill memo. Its outputs are read by role (`memoOutputs`), must derive from a
 * note of this wallet (the consumed note: `Poseidon(4, its inner, role)`), and every output of this
 * wallet (trade-out and change; the fee note is the fee owner's) must recompute to a leaf of the
 * tree, a zero-value one too (settlement v2 appends all six outputs). Only then are the outputs
 * stored, and never a zero-value one (it can pay nothing). The consumed note becomes `spending`,
 * never `spent`: only the ledger's spent-nullifier list says a note is spent (the next sync reads it).
 */
import { OutputRole, type FillMemo } from '@nightjar/crypto';
import { bytesToHex } from '@nightjar/protocol';
import { derivesFrom, memoOutputs } from './memo-outputs.js';
import type { MemoIngestResult, NoteBook, WalletNote } from './types.js';

/** Stores a memo's outputs in `wallet` when they check out (see the module comment). */
export function ingestFill(wallet: NoteBook, memo: FillMemo, mints: readonly string[]): MemoIngestResult {
  const outputs = memoOutputs(memo);
  const first = outputs?.[0];
  if (!outputs || !first) return { status: 'orphan', memo };
  const order = wallet.orders.get(bytesToHex(memo.orderId));
  // The tracked order's note first (one hash), else whichever note of ours the outputs derive from.
  const backing = order ? wallet.notes.get(order.noteCommitment) : undefined;
  const parent =
    backing && derivesFrom(outputs, BigInt('0x' + backing.inner)) ? backing : wallet.parentOf(first.inner);
  if (!parent || !derivesFrom(outputs, BigInt('0x' + parent.inner))) return { status: 'orphan', memo };
  // A trade-out is in the market's other mint: the tracked order's, else each candidate in turn.
  const otherMints = order
    ? [order.baseMint === parent.mint ? order.quoteMint : order.baseMint]
    : mints.filter((m) => m !== parent.mint);
  const found: WalletNote[] = [];
  for (const out of outputs) {
    if (out.role === OutputRole.fee) continue;
    const trade = out.role === OutputRole.tradeOut;
    const candidates = trade ? otherMints : [parent.mint];
    const match = findLeafNote(wallet, candidates, out.amount, out.inner, trade ? 'trade' : 'change');
    if (!match) return { status: 'unverified', memo };
    found.push(match);
  }
  for (const n of found) if (n.amount > 0n) wallet.addNote(n);
  // The settlement consumed the parent: not offered for another order; the ledger confirms it.
  if (parent.state !== 'spent') parent.state = 'spending';
  // A partial fill's change note backs the remainder now: no relock on chain (it reads `free`
  // there), but the wallet keeps it reserved for the live order until the order ends.
  const change = found.find((n) => n.origin === 'change' && n.amount > 0n);
  if (order && change && order.noteCommitment === parent.commitment && wallet.isLive(order))
    order.noteCommitment = change.commitment;
  return { status: 'stored', memo, notes: found.filter((n) => n.amount > 0n), consumed: parent };
}

/** The note with this opening in one of `mints` whose commitment is a known leaf. */
function findLeafNote(
  wallet: NoteBook,
  mints: readonly string[],
  amount: bigint,
  inner: bigint,
  origin: 'trade' | 'change',
): WalletNote | undefined {
  for (const mint of mints) {
    const note = wallet.noteFor(mint, amount, inner, 0, origin);
    const leaf = wallet.leaves.get(note.commitment);
    if (leaf) return { ...note, treeId: leaf.treeId, leafIndex: leaf.leafIndex };
  }
  return undefined;
}
