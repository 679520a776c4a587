/**
 * The wallet's notes' states, learnt from the chain's own public sets rather than by asking about
 * its nullifiers (issue 30: a `getNoteStatuses` of every unspent nullifier, beside the funding
 * address's `getDeposits`, showed the ledger's RPC node the wallet's whole history at once). The
 * spent set only grows, so the wallet mirrors it from a cursor (`getSpentNullifiers`); live locks
 * are few and read whole (`getLiveLocks`). Neither read names anything of the wallet.
 */
import type { Client } from '../client.js';
import type { Wallet, WalletNote } from '../wallet/wallet.js';

/** The chain's spent nullifiers as read so far, per wallet, and the cursor of the next page. */
interface SpentMirror {
  next: number;
  spent: Set<string>;
}

const mirrors = new WeakMap<Wallet, SpentMirror>();

/** Reads the spent nullifiers the wallet's mirror lacks (an empty page: caught up). */
async function spentSet(client: Client): Promise<Set<string>> {
  let mirror = mirrors.get(client.wallet);
  if (!mirror) mirrors.set(client.wallet, (mirror = { next: 0, spent: new Set() }));
  for (;;) {
    const page = await client.ledger.getSpentNullifiers({ from: mirror.next });
    if (page.nullifiers.length === 0) return mirror.spent;
    for (const n of page.nullifiers) mirror.spent.add(n);
    mirror.next = page.next;
  }
}

/** Every nullifier locked right now. */
async function lockedSet(client: Client): Promise<Set<string>> {
  const locked = new Set<string>();
  for (let from = 0; ;) {
    const page = await client.ledger.getLiveLocks({ from });
    if (page.locks.length === 0) return locked;
    for (const l of page.locks) locked.add(l.nullifier);
    from = page.next;
  }
}

/**
 * Reads the state of `notes` from the chain's spent set and live locks and records it: the only
 * place a note becomes `spent`, and where a `spending` note (consumed by a fill or a withdrawal
 * this wallet saw) learns what really happened to it.
 */
export async function refreshNoteStates(client: Client, notes: readonly WalletNote[]): Promise<void> {
  if (notes.length === 0) return;
  const spent = await spentSet(client);
  const locked = await lockedSet(client);
  for (const n of notes)
    n.state = spent.has(n.nullifier) ? 'spent' : locked.has(n.nullifier) ? 'locked' : 'free';
}
