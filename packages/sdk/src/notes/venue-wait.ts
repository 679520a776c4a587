/**
 * Waiting for the venue's tree mirror to have notes. Order and split proofs are built against the
 * engine's inclusion paths, and the mirror holds finalized leaves only: a note that just landed
 * (a deposit, a split output, a change note) is usable about 31 slots later.
 */
import type { Client } from '../client.js';
import { sleep } from '../core/utils/backoff.js';
import type { WalletNote } from '../wallet/wallet.js';
import { venueTree } from './choose-note.js';

/** How long to wait for the venue's tree, and how often to look. */
export interface VenueWaitOptions {
  /** Longest wait in ms (default 20,000: a note is finalized about 13 s after it lands). */
  waitMs?: number;
  /** Poll interval in ms (default one slot). */
  pollMs?: number;
}

/**
 * Polls `GET /tree/root` until the venue's tree has every note of `notes` or the wait is over.
 * Returns whether it has them, how long it waited, and the venue's tree as last read.
 */
export async function waitForVenueTree(
  client: Client,
  notes: readonly WalletNote[],
  options: VenueWaitOptions = {},
): Promise<{ usable: boolean; waitedMs: number; has: (n: WalletNote) => boolean }> {
  const waitMs = options.waitMs ?? 20_000;
  const start = Date.now();
  for (;;) {
    const has = await venueTree(client, notes);
    const waitedMs = Date.now() - start;
    if (notes.every(has)) return { usable: true, waitedMs, has };
    if (waitedMs >= waitMs) return { usable: false, waitedMs, has };
    await sleep(Math.min(options.pollMs ?? client.slotMs, waitMs - waitedMs));
  }
}
