/** Order expiry: a duration or a wall-clock time, converted to `expiry_slot` through `GET /time`. */
import { MAX_ORDER_LIFETIME_SLOTS, SETTLEMENT_BUFFER_SLOTS } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { fetchTime } from '../core/venue-reads.js';
import { NIGHTJAR_ERROR__PARAMETER, NightjarError } from '../core/errors/index.js';

/** When an order expires: after some slots or seconds, at a wall-clock time, or at a slot. */
export type Expiry = { slots: number } | { seconds: number } | { at: Date | number } | { slot: bigint };

/** Default expiry: 1,000 slots (within the 4,500-slot maximum lifetime). */
export const DEFAULT_EXPIRY: Expiry = { slots: 1000 };

/**
 * Refuses a lifetime the venue would refuse (1012 within the settlement buffer, 1007 beyond the
 * maximum lifetime), in slots from now, with the fix.
 */
function checkLifetime(client: Client, slots: number): void {
  if (!Number.isFinite(slots) || slots <= 0)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: 'expiry must be in the future: give e.g. `expiry: { seconds: 60 }`',
    });
  const ms = (n: bigint) => Number(n) * client.slotMs;
  const duration = (n: bigint) => {
    const s = Math.round(ms(n) / 1000);
    return s >= 120 ? `${Math.round(s / 60)} min` : `${s} s`;
  };
  if (BigInt(slots) <= SETTLEMENT_BUFFER_SLOTS)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail:
        `expiry is too soon: an order must outlive the settlement buffer of ${duration(SETTLEMENT_BUFFER_SLOTS)} ` +
        `(${SETTLEMENT_BUFFER_SLOTS} slots of ${client.slotMs} ms): give \`expiry: { seconds: ${Math.ceil(ms(SETTLEMENT_BUFFER_SLOTS + 1n) / 1000)} }\` or more`,
    });
  if (BigInt(slots) > MAX_ORDER_LIFETIME_SLOTS)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail:
        `expiry is too far: an order lives at most ${duration(MAX_ORDER_LIFETIME_SLOTS)} ` +
        `(${MAX_ORDER_LIFETIME_SLOTS} slots of ${client.slotMs} ms): give \`expiry: { seconds: ${Math.floor(ms(MAX_ORDER_LIFETIME_SLOTS) / 1000)} }\` or less`,
    });
}

/** The lifetime in slots of an expiry given as a duration; undefined for a time or a slot. */
function durationSlots(client: Client, expiry: Expiry): number | undefined {
  if ('slots' in expiry) return expiry.slots;
  if ('seconds' in expiry) return Math.ceil((expiry.seconds * 1000) / client.slotMs);
  return undefined;
}

/**
 * Checks an expiry given as a duration against the venue's bounds without any request, so an
 * order that would be refused fails before its note is prepared or proved.
 */
export function checkExpiry(client: Client, expiry: Expiry = DEFAULT_EXPIRY): void {
  const slots = durationSlots(client, expiry);
  if (slots !== undefined) checkLifetime(client, slots);
}

/**
 * Converts `expiry` to an absolute `expiry_slot` using the engine's clock, refusing a lifetime the
 * venue would refuse. An absolute `slot` is the caller's own and goes to the venue as given.
 */
export async function resolveExpirySlot(client: Client, expiry: Expiry = DEFAULT_EXPIRY): Promise<bigint> {
  if ('slot' in expiry) return expiry.slot;
  const now = await fetchTime(client);
  let slots = durationSlots(client, expiry);
  if (slots === undefined) {
    const at = 'at' in expiry ? (typeof expiry.at === 'number' ? expiry.at : expiry.at.getTime()) : NaN;
    slots = Math.floor((at - now.unixMs) / client.slotMs);
  }
  checkLifetime(client, slots);
  return now.slot + BigInt(slots);
}
