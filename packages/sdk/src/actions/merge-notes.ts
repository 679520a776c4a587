import type { Client } from '../client.js';
import { JOIN_SPLIT_MAX_INPUTS } from '@nightjar/crypto';
import { mergeCandidates } from '../notes/merge-candidates.js';
import { runJoinSplit, type JoinSplitProgress } from '../notes/run-join-split.js';
import { takeFreeNotes } from '../notes/take-notes.js';
import type { WalletNote } from '../wallet/wallet.js';
import {
  NIGHTJAR_ERROR__NOTHING_TO_MERGE,
  NIGHTJAR_ERROR__PARAMETER,
  NightjarError,
} from '../core/errors/index.js';

/** Which notes to merge. */
export interface MergeNotesParameters {
  /** Mint (Base58) of the notes. */
  mint: string;
  /** The notes to merge (2 to 4 commitments); default `mergeCandidates`: up to 4 of the smallest free notes. */
  commitments?: readonly string[];
  /** Wait until the venue's tree has the merged note, so it can back orders (default true). */
  waitUsable?: boolean;
  /** Bound of each wait for the venue's tree, in ms; default 20,000. */
  waitMs?: number;
  /** Told each stage: `proving`, `sending`, `landed`, `usable`. */
  onProgress?: (progress: JoinSplitProgress) => void;
}

/** The transaction, the notes consumed and the one note made of them. */
export interface MergeNotesReturnType {
  signature: string;
  spent: WalletNote[];
  note: WalletNote;
}

/** What `mergeNotes` throws: `NOTHING_TO_MERGE`, `NOTE_NOT_FREE`, `PROOF`, or a ledger refusal. */
export type MergeNotesErrorType = NightjarError;

/**
 * Merges 2 to 4 free notes of one mint into one note of their total value (a join-split: see
 * `joinSplit`), e.g. the change notes of partially filled orders. `NOTHING_TO_MERGE` when the
 * mint has fewer than 2 free notes; nothing is sent then.
 *
 * @example
 * const { note } = await mergeNotes(client, { mint: USDC });
 * console.log(note.amount); // the sum of the notes merged
 */
export async function mergeNotes(
  client: Client,
  params: MergeNotesParameters,
): Promise<MergeNotesReturnType> {
  const commitments =
    params.commitments ?? mergeCandidates(client, { mint: params.mint }).map((n) => n.commitment);
  if (params.commitments === undefined && commitments.length < 2)
    throw new NightjarError(NIGHTJAR_ERROR__NOTHING_TO_MERGE, {
      mint: params.mint,
      count: client.wallet.freeNotes(params.mint).length,
    });
  if (commitments.length < 2 || commitments.length > JOIN_SPLIT_MAX_INPUTS)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `a merge takes 2 to ${JOIN_SPLIT_MAX_INPUTS} notes`,
    });
  const inputs = takeFreeNotes(client, params.mint, commitments);
  try {
    const total = inputs.reduce((s, n) => s + n.amount, 0n);
    const r = await runJoinSplit(client, {
      mint: params.mint,
      inputs,
      amounts: [total],
      ...(params.waitUsable === undefined ? {} : { waitUsable: params.waitUsable }),
      ...(params.waitMs === undefined ? {} : { waitMs: params.waitMs }),
      ...(params.onProgress ? { onProgress: params.onProgress } : {}),
    });
    return { signature: r.signature, spent: r.spent, note: r.notes[0]! };
  } finally {
    for (const n of inputs) client.wallet.reserved.delete(n.commitment);
  }
}
