/**
 * The note that would back an order, as the SDK's default choice makes it (`defaultBackingNote`):
 * an order is backed by ONE note, and the whole note is out of use until the order ends. The
 * ticket says so and offers a split to the order's size first (`prepare_note: 'exact'`).
 */
import { defaultBackingNote, formatUnits, type Wallet } from '@nightjar/sdk';

/** The note's part of a preview, in the collateral asset. */
export interface CollateralNote {
  amount: string;
  amount_units: string;
  /** The note is larger than the collateral: all of it is locked until the order ends. */
  whole_note_locked: boolean;
  /** What a split to the order's size first leaves free ("0" when the note fits exactly). */
  split_remainder: string;
  /** One plain sentence for the ticket. */
  explanation: string;
}

/** The free note of `mint` that would back an order needing `required`, or undefined (a merge, or none). */
export function backingNote(
  wallet: Wallet,
  mint: string,
  required: bigint,
  decimals: number,
  asset: string,
): CollateralNote | undefined {
  const note = defaultBackingNote(wallet.freeNotes(mint), required);
  if (!note || required <= 0n) return undefined;
  const whole = note.amount > required;
  const fmt = (v: bigint) => `${formatUnits(v, decimals)} ${asset}`;
  return {
    amount: formatUnits(note.amount, decimals),
    amount_units: note.amount.toString(),
    whole_note_locked: whole,
    split_remainder: formatUnits(note.amount - required, decimals),
    explanation: whole
      ? `The order is backed by one note of ${fmt(note.amount)}: the whole note is out of use until ` +
        `the order ends, though the order needs only ${fmt(required)}. Split it first to keep ` +
        `${fmt(note.amount - required)} free for other orders and withdrawals.`
      : `The order is backed by one note of exactly ${fmt(required)}, out of use until the order ends.`,
  };
}
