/**
 * Storing a decrypted note memo of a join-split (a split or merge this wallet made, maybe from
 * another device or before a restore). Each non-empty output slot j is a note of the memo's mint
 * and amount with inner Poseidon(7, parent inner, j), owned by this wallet's keys: it is stored
 * only when that commitment is among the tree's leaves, like fill outputs, so a memo sealed to
 * this viewing key by anyone else adds nothing that is not this wallet's to spend. The parent
 * (input 0) becomes `spending`; only the ledger's spent-nullifier list says spent.
 *
 * A withdrawal's change memo has the same format with one output in slot 0, whose inner is
 * Poseidon(9, parent inner) (DESIGN 3). The memo does not say which it is (one format for both),
 * so a one-output memo whose join-split output is no leaf is tried as a withdrawal's change.
 */
import { joinSplitOutputInner, withdrawalChangeInner, type NoteMemo } from '@nightjar/crypto';
import { addressToBase58, fieldToHex } from '@nightjar/protocol';
import type { NoteBook, WalletNote } from './types.js';

/** What ingesting a note memo did. */
export type NoteMemoIngestResult =
  /** Stored: its outputs, in slot order. */
  | { status: 'stored'; memo: NoteMemo; notes: WalletNote[] }
  | { status: 'duplicate' }
  | { status: 'not_ours' }
  /** Decrypted, but an output commitment is not (yet) among the known leaves: not stored. */
  | { status: 'unverified'; memo: NoteMemo }
  /** Decrypted, but it lists no output: ignored. */
  | { status: 'orphan'; memo: NoteMemo };

/** Stores a note memo's outputs in `wallet` when every one is a known leaf (see the module comment). */
export function ingestSplit(wallet: NoteBook, memo: NoteMemo): NoteMemoIngestResult {
  const r = ingestJoinSplit(wallet, memo);
  return r.status === 'unverified' ? ingestWithdrawalChange(wallet, memo) : r;
}

/** A withdrawal's change: one output in slot 0, inner Poseidon(9, parent inner), if it is a leaf. */
function ingestWithdrawalChange(wallet: NoteBook, memo: NoteMemo): NoteMemoIngestResult {
  const amount = memo.amounts[0] ?? 0n;
  if (amount === 0n || memo.amounts.slice(1).some((a) => a !== 0n)) return { status: 'unverified', memo };
  const mint = addressToBase58(memo.mint);
  const note = wallet.noteFor(mint, amount, withdrawalChangeInner(memo.parentInner), 0, 'withdrawal_change');
  const leaf = wallet.leaves.get(note.commitment);
  if (!leaf) return { status: 'unverified', memo };
  return store(wallet, memo, [{ ...note, treeId: leaf.treeId, leafIndex: leaf.leafIndex }]);
}

function ingestJoinSplit(wallet: NoteBook, memo: NoteMemo): NoteMemoIngestResult {
  const mint = addressToBase58(memo.mint);
  const found: WalletNote[] = [];
  for (const [slot, amount] of memo.amounts.entries()) {
    if (amount === 0n) continue;
    const note = wallet.noteFor(mint, amount, joinSplitOutputInner(memo.parentInner, slot), 0, 'join_split');
    const leaf = wallet.leaves.get(note.commitment);
    if (!leaf) return { status: 'unverified', memo };
    found.push({ ...note, treeId: leaf.treeId, leafIndex: leaf.leafIndex });
  }
  if (found.length === 0) return { status: 'orphan', memo };
  return store(wallet, memo, found);
}

/** Stores `found` and marks the parent (the note consumed) `spending`. */
function store(wallet: NoteBook, memo: NoteMemo, found: WalletNote[]): NoteMemoIngestResult {
  for (const n of found) wallet.addNote(n);
  const parentInner = fieldToHex(memo.parentInner);
  for (const n of wallet.notes.values())
    if (n.inner === parentInner && n.state !== 'spent') n.state = 'spending';
  return { status: 'stored', memo, notes: found };
}
