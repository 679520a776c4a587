import type { Client } from '../client.js';
import { selectFreeNote, type ChosenNote, type NoteChoiceParameters } from '../notes/choose-note.js';
import type { NIGHTJAR_ERROR__INSUFFICIENT_NOTES } from '../core/errors/index.js';
import { type NightjarError } from '../core/errors/index.js';

/** The collateral an order needs. */
export type SelectNoteParameters = NoteChoiceParameters;

/** The chosen note and the `collateral_amount` to declare. */
export type SelectNoteReturnType = ChosenNote;

/** What `selectNote` throws: no free note of the mint would do. */
export type SelectNoteErrorType = NightjarError<typeof NIGHTJAR_ERROR__INSUFFICIENT_NOTES>;

/**
 * Chooses the note that backs an order: a note of exactly the required value, or else the
 * smallest larger one (with `collateral_amount` and a change note). Free notes only: not locked
 * or being consumed on the ledger, not backing a live order, not being placed right now.
 *
 * @example
 * const { note, collateralAmount } = selectNote(client, { mint, required });
 */
export function selectNote(client: Client, params: SelectNoteParameters): SelectNoteReturnType {
  return selectFreeNote(client, params);
}
