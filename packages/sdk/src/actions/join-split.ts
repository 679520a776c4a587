import type { Client } from '../client.js';
import {
  runJoinSplit,
  type JoinSplitProgress,
  type JoinSplitReturnType as RunReturnType,
} from '../notes/run-join-split.js';
import { takeFreeNotes } from '../notes/take-notes.js';
import type { NightjarError } from '../core/errors/index.js';

export type { JoinSplitProgress } from '../notes/run-join-split.js';

/** Notes to consume and notes to create, all of one mint. */
export interface JoinSplitParameters {
  /** Mint (Base58) of every note consumed and created. */
  mint: string;
  /** Commitments of the notes to consume: 1 to 4 free notes of `mint`, each once. */
  inputs: readonly string[];
  /** The new notes' amounts in atomic units: 1 to 8, each positive, adding up exactly to the inputs'. */
  amounts: readonly bigint[];
  /** Wait until the venue's tree has the new notes, so they can back orders (default true). */
  waitUsable?: boolean;
  /** Bound of each wait for the venue's tree (inputs before proving, outputs after landing), in ms; default 20,000. */
  waitMs?: number;
  /** Told each stage: `proving`, `sending`, `landed`, `usable`. */
  onProgress?: (progress: JoinSplitProgress) => void;
}

/** The transaction, the notes it consumed and the new notes (in the order of `amounts`). */
export type JoinSplitReturnType = RunReturnType;

/**
 * Consumes 1 to 4 free notes of one mint and creates up to 8 of the same mint (value conserved):
 * the shared core of `splitNote`, `mergeNotes` and note preparation for orders. Proves VALID_JOIN_SPLIT against the venue's tree, seals a note memo to the wallet's own
 * viewing key (so `syncWallet` recovers the outputs from the seed), signs with a fresh random key
 * (nothing links it to the funding address), sends, and waits until it has landed. Then the inputs
 * are spent and the new notes are in the wallet at their leaves; by default it also waits (bounded)
 * until the venue's tree has them. The inputs are reserved meanwhile: no concurrent order, split or
 * withdrawal takes them.
 *
 * Throws before anything is sent: `NOTE_NOT_FREE` (an input is not free: `reason`),
 * `JOIN_SPLIT_AMOUNTS` (amounts that do not add up), `NOTES_PENDING` (an input not in the
 * venue's tree in time), `PROOF`. After sending: `LEDGER_REFUSED` (with the ledger's code;
 * the inputs stay free), `TRANSACTION_PENDING`, and `SPLIT_OUTPUTS_PENDING` when the split
 * landed but the venue's tree lacks the outputs after the wait.
 *
 * @example
 * const { notes } = await joinSplit(client, {
 *   mint: USDC,
 *   inputs: [a.commitment, b.commitment], // 300 + 200
 *   amounts: [250_000_000n, 250_000_000n],
 * });
 */
export async function joinSplit(client: Client, params: JoinSplitParameters): Promise<JoinSplitReturnType> {
  const inputs = takeFreeNotes(client, params.mint, params.inputs);
  try {
    return await runJoinSplit(client, {
      mint: params.mint,
      inputs,
      amounts: params.amounts,
      ...(params.waitUsable === undefined ? {} : { waitUsable: params.waitUsable }),
      ...(params.waitMs === undefined ? {} : { waitMs: params.waitMs }),
      ...(params.onProgress ? { onProgress: params.onProgress } : {}),
    });
  } finally {
    for (const n of inputs) client.wallet.reserved.delete(n.commitment);
  }
}

/** What `joinSplit` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type JoinSplitErrorType = NightjarError;
