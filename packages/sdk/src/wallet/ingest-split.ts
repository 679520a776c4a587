/**
 * Storing a decrypted note memo of a join-split (a split or merge this wallet made, maybe from
 * another device or before a restore). Each non-empty output slot j is a note of the memo's mint
 * and amount with inner Poseidon(7, parent inner, j), owned by this wallet's keys: it is stored
 * only when that commitment is among the tree's leaves, like fill outputs, so a memo sealed to
 * this viewing key by anyone else adds nothing that is not this wallet's to spend. The parent
 * (input 0) becomes `spending`; only the ledger's `getNoteStatus` says spent.
 */
import { joinSplitOutputInner, type NoteMemo } from '@nightjar/crypto';
import { addressToBase58, fieldToHex } from '@nightjar/protocol';
import type { Wallet, WalletNote } from './wallet.js';

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
export function ingestSplit(wallet: Wallet, memo: NoteMemo): NoteMemoIngestResult {
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
  for (const n of found) wallet.addNote(n);
  const parentInner = fieldToHex(memo.parentInner);
  for (const n of wallet.notes.values())
    if (n.inner === parentInner && n.state !== 'spent') n.state = 'spending';
  return { status: 'stored', memo, notes: found };
}
