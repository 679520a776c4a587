/** The wallet's fills: their key, their record from a memo's amounts, and their saved form. */
import type { WalletFillEvent } from './events.js';
import type { TrackedFill } from './types.js';

/** A fill's key in `wallet.fills`: `<order id>:<match id>`. */
export const fillKey = (orderId: string, matchId: string): string => `${orderId}:${matchId}`;

/** A fill first heard of now: settlement queued, amounts unknown until its memo. */
export function newFill(orderId: string, matchId: string, time: number): TrackedFill {
  return { orderId, matchId, time, settlement: { stage: 'queued', outcome: 'pending' } };
}

/** Writes a verified memo's amounts into the fill's record. */
export function recordAmounts(fill: TrackedFill, event: WalletFillEvent): void {
  fill.size = event.size;
  fill.fee = event.fee;
  if (event.price !== undefined) fill.price = event.price;
}

type Amount = 'size' | 'price' | 'fee';
const AMOUNTS: readonly Amount[] = ['size', 'price', 'fee'];

/** A fill as the wallet file keeps it (amounts as decimal strings). */
export type SavedFill = Omit<TrackedFill, Amount> & Partial<Record<Amount, string>>;

export function saveFill(fill: TrackedFill): SavedFill {
  const saved: SavedFill = { ...fill, size: undefined, price: undefined, fee: undefined };
  for (const k of AMOUNTS)
    if (fill[k] === undefined) delete saved[k];
    else saved[k] = fill[k]!.toString();
  return saved;
}

export function loadFill(saved: SavedFill): TrackedFill {
  const fill: TrackedFill = { ...saved, size: undefined, price: undefined, fee: undefined };
  for (const k of AMOUNTS)
    if (saved[k] === undefined) delete fill[k];
    else fill[k] = BigInt(saved[k]!);
  return fill;
}
