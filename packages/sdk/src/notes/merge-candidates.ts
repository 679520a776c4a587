/** The notes a merge would combine by default. */
import { JOIN_SPLIT_MAX_INPUTS } from '@nightjar/crypto';
import type { Client } from '../client.js';
import type { WalletNote } from '../wallet/wallet.js';

/** Which mint to look at. */
export interface MergeCandidatesParameters {
  mint: string;
}

/**
 * The free notes of `mint` that `mergeNotes` would combine by default: up to 4 of the smallest
 * (the change notes partial fills leave behind), or none when there are fewer than 2. Synchronous,
 * from the wallet alone: a program or the CLI can offer the merge after fills.
 *
 * @example
 * const dust = mergeCandidates(client, { mint: USDC });
 * if (dust.length > 0) console.log(`merge ${dust.length} small notes: mergeNotes`);
 */
export function mergeCandidates(client: Client, params: MergeCandidatesParameters): WalletNote[] {
  const free = client.wallet.freeNotes(params.mint);
  return free.length >= 2 ? free.slice(0, JOIN_SPLIT_MAX_INPUTS) : [];
}
