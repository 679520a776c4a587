/** Order expiry: a duration or a wall-clock time, converted to `expiry_slot` through `GET /time`. */
import type { Client } from '../client.js';
import { ParameterError } from '../errors.js';
import { getTime } from './get-time.js';

/** When an order expires: after some slots or seconds, at a wall-clock time, or at a slot. */
export type Expiry = { slots: number } | { seconds: number } | { at: Date | number } | { slot: bigint };

/** Default expiry: 1,000 slots (within the 4,500-slot maximum lifetime). */
export const DEFAULT_EXPIRY: Expiry = { slots: 1000 };

/** Converts `expiry` to an absolute `expiry_slot` using the engine's clock. */
export async function resolveExpirySlot(client: Client, expiry: Expiry = DEFAULT_EXPIRY): Promise<bigint> {
  if ('slot' in expiry) return expiry.slot;
  const now = await getTime(client);
  let slots: number;
  if ('slots' in expiry) slots = expiry.slots;
  else if ('seconds' in expiry) slots = Math.ceil((expiry.seconds * 1000) / client.slotMs);
  else {
    const at = typeof expiry.at === 'number' ? expiry.at : expiry.at.getTime();
    slots = Math.floor((at - now.unixMs) / client.slotMs);
  }
  if (!Number.isFinite(slots) || slots <= 0) throw new ParameterError('expiry must be in the future');
  return now.slot + BigInt(slots);
}
