import type { Client } from '../client.js';
import { InsufficientNotesError } from '../errors.js';
import type { WalletNote } from '../wallet/wallet.js';

/** The collateral an order needs. */
export interface SelectNoteParameters {
  /** Mint of the collateral (quote for a bid, base for an ask). */
  mint: string;
  /** The collateral the order requires (nominal + fee). */
  required: bigint;
  /** Use this note (commitment) instead of choosing. */
  commitment?: string;
}

/** The chosen note and the `collateral_amount` to declare. */
export interface SelectNoteReturnType {
  note: WalletNote;
  /** The note's value when it exceeds `required` (the surplus returns as change); else undefined. */
  collateralAmount: bigint | undefined;
}

/**
 * Chooses the note that backs an order: a note of exactly the required value, or else the
 * smallest larger one (with `collateral_amount` and a change note). Free notes only: not locked
 * on the ledger, not backing a live order, not being placed right now.
 *
 * @example
 * const { note, collateralAmount } = selectNote(client, { mint, required });
 */
export function selectNote(client: Client, params: SelectNoteParameters): SelectNoteReturnType {
  const free = client.wallet.freeNotes(params.mint);
  const note = params.commitment
    ? free.find((n) => n.commitment === params.commitment)
    : (free.find((n) => n.amount === params.required) ?? free.find((n) => n.amount > params.required));
  if (!note || note.amount < params.required) {
    const largest = free.reduce((m, n) => (n.amount > m ? n.amount : m), 0n);
    throw new InsufficientNotesError(params.mint, params.required, largest);
  }
  return { note, collateralAmount: note.amount === params.required ? undefined : note.amount };
}
