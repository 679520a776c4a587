import type { Client } from '../client.js';
import type { WalletNote } from '../wallet/wallet.js';

/** The ledger's `getNoteStatuses` page size. */
const STATUS_PAGE = 256;

/**
 * Reads the state of `notes` from the ledger by nullifier (`getNoteStatuses`) and records it:
 * the only place a note becomes `spent`, and where a `spending` note (consumed by a fill or a
 * withdrawal this wallet saw) learns what really happened to it.
 */
export async function refreshNoteStates(client: Client, notes: readonly WalletNote[]): Promise<void> {
  for (let i = 0; i < notes.length; i += STATUS_PAGE) {
    const page = notes.slice(i, i + STATUS_PAGE);
    const states = await client.ledger.getNoteStatuses({ nullifiers: page.map((n) => n.nullifier) });
    page.forEach((n, j) => {
      const s = states[j]?.state;
      if (s) n.state = s;
    });
  }
}
