/**
 * The note that backs an order: chosen among the free notes (`chooseNote`), or made for it by a
 * split or merge first, as the order's `prepareNote` says (see `NotePreparation`), or the one
 * `placeOrders` already made and reserved for it.
 */
import type { Client } from '../client.js';
import type { WalletNote } from '../wallet/wallet.js';
import type { OrderParameters, OrderTerms, PrepareOptions } from './order-terms.js';
import { chooseNote, largestAmount, venueTree, type ChosenNote } from '../notes/choose-note.js';
import { fundNotes } from '../notes/fund.js';
import type { JoinSplitReturnType } from '../notes/run-join-split.js';
import { waitForVenueTree } from '../notes/venue-wait.js';
import {
  isNightjarError,
  NIGHTJAR_ERROR__INSUFFICIENT_NOTES,
  NIGHTJAR_ERROR__NOTE_NOT_FREE,
  NIGHTJAR_ERROR__NOTES_PENDING,
  NightjarError,
} from '../core/errors/index.js';

/** The order's note, and the split or merge that made it. */
export type OrderNote = ChosenNote & { split?: JoinSplitReturnType };

/**
 * Backs an order with `note` (reserved already): once the venue's tree has it (bounded by
 * `waitMs`), with `collateral_amount` when it is larger than required. Releases it on failure.
 */
async function heldNote(
  client: Client,
  note: WalletNote,
  required: bigint,
  waitMs?: number,
): Promise<ChosenNote> {
  const ready = await waitForVenueTree(client, [note], { waitMs });
  if (!ready.usable) {
    client.wallet.reserved.delete(note.commitment);
    throw new NightjarError(NIGHTJAR_ERROR__NOTES_PENDING, {
      mint: note.mint,
      required,
      available: 0n,
      waitedMs: ready.waitedMs,
    });
  }
  return { note, collateralAmount: note.amount === required ? undefined : note.amount };
}

/**
 * The deposit notes a split or merge for an order must leave alone: those on their fresh-note
 * hold, and those not yet final (their hold has not begun). Nothing without a hold.
 */
async function onHold(client: Client, mint: string): Promise<{ exclude?: Set<string> }> {
  const hold = client.noteHold;
  if (!hold?.enabled) return {};
  const free = client.wallet.freeNotes(mint);
  const inTree = await venueTree(client, free);
  return { exclude: new Set(free.filter((n) => !hold.ready(n, inTree(n))).map((n) => n.commitment)) };
}

/** A note made for the order by a split or merge (reserved), or the reason there is none. */
async function preparedNote(
  client: Client,
  terms: OrderTerms,
  params: OrderParameters,
  allowLarger: boolean,
): Promise<OrderNote> {
  const { funded, splits } = await fundNotes(client, {
    ...(await onHold(client, terms.mint)),
    mint: terms.mint,
    amounts: [terms.required],
    allowLarger,
    ...(params.noteWaitMs === undefined ? {} : { waitMs: params.noteWaitMs }),
    ...(params.onNoteProgress ? { onProgress: params.onNoteProgress } : {}),
  });
  const f = funded[0]!;
  if (f.status === 'failure') throw f.error;
  const chosen = await heldNote(client, f.note, terms.required, params.noteWaitMs);
  return splits[0] ? { ...chosen, split: splits[0] } : chosen;
}

/** The order's note: chosen, or prepared by a split or merge as `prepareNote` says. */
export async function orderNote(
  client: Client,
  terms: OrderTerms,
  params: OrderParameters,
  options: PrepareOptions,
): Promise<OrderNote> {
  if (options.held) return heldNote(client, options.held, terms.required, params.noteWaitMs);
  const mode = params.prepareNote ?? 'auto';
  // A named note, or a modify's own note, is used as it is.
  if (mode === 'exact' && !params.note && !options.replacing)
    return preparedNote(client, terms, params, false);
  try {
    return await chooseNote(
      client,
      {
        mint: terms.mint,
        required: terms.required,
        ...(params.note ? { commitment: params.note } : {}),
        ...(options.replacing ? { replacing: options.replacing } : {}),
      },
      {
        ...(params.noteWaitMs === undefined ? {} : { waitMs: params.noteWaitMs }),
        // The tree the order's proof is built on is its market's engine's.
        engine: await client.engineFor(params.symbol),
      },
    );
  } catch (err) {
    // Nothing covers it alone (a note on its way is waited for, not merged around).
    // A deposit on its fresh-note hold is not merged or split around either: that would spend it.
    if (!isNightjarError(err, [NIGHTJAR_ERROR__INSUFFICIENT_NOTES, NIGHTJAR_ERROR__NOTE_NOT_FREE])) throw err;
    if (params.note || options.replacing) throw err;
    if (mode === 'auto') return preparedNote(client, terms, params, true);
    const free = client.wallet.freeNotes(terms.mint);
    throw new NightjarError(NIGHTJAR_ERROR__INSUFFICIENT_NOTES, {
      mint: terms.mint,
      required: terms.required,
      available: largestAmount(free),
    });
  }
}
