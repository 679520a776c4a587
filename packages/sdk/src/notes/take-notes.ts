import type { Client } from '../client.js';
import type { WalletNote } from '../wallet/wallet.js';
import { largestAmount } from './choose-note.js';
import {
  NIGHTJAR_ERROR__NOTE_NOT_FREE,
  NIGHTJAR_ERROR__PARAMETER,
  NightjarError,
} from '../core/errors/index.js';

/**
 * The wallet notes `commitments` of `mint`, each checked free and reserved in the same tick (so no
 * concurrent choice takes them); `NOTE_NOT_FREE` naming the first that is not.
 */
export function takeFreeNotes(client: Client, mint: string, commitments: readonly string[]): WalletNote[] {
  const wallet = client.wallet;
  if (new Set(commitments).size !== commitments.length)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, { detail: 'a note is named twice' });
  const notes = commitments.map((c) => {
    const reason = wallet.notFreeReason(c, mint);
    if (reason)
      throw new NightjarError(NIGHTJAR_ERROR__NOTE_NOT_FREE, {
        mint,
        commitment: c,
        reason,
        required: wallet.notes.get(c)?.amount ?? 0n,
        available: largestAmount(wallet.freeNotes(mint)),
      });
    return wallet.notes.get(c)!;
  });
  for (const n of notes) wallet.reserved.add(n.commitment);
  return notes;
}
