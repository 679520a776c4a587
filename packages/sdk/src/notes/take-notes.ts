import type { Client } from '../client.js';
import { NoteNotFreeError, ParameterError } from '../core/errors.js';
import type { WalletNote } from '../wallet/wallet.js';
import { largestAmount } from './choose-note.js';

/**
 * The wallet notes `commitments` of `mint`, each checked free and reserved in the same tick (so no
 * concurrent choice takes them); `NoteNotFreeError` naming the first that is not.
 */
export function takeFreeNotes(client: Client, mint: string, commitments: readonly string[]): WalletNote[] {
  const wallet = client.wallet;
  if (new Set(commitments).size !== commitments.length) throw new ParameterError('a note is named twice');
  const notes = commitments.map((c) => {
    const reason = wallet.notFreeReason(c, mint);
    if (reason)
      throw new NoteNotFreeError(
        mint,
        c,
        reason,
        wallet.notes.get(c)?.amount ?? 0n,
        largestAmount(wallet.freeNotes(mint)),
      );
    return wallet.notes.get(c)!;
  });
  for (const n of notes) wallet.reserved.add(n.commitment);
  return notes;
}
