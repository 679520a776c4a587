/**
 * Groups of codes a caller handles alike (`isNightjarError(e, INSUFFICIENT_NOTES_CODES)`), as it
 * once caught a base class. A code may sit in more than one group.
 */
import { TRANSPORT_CHECK, VENUE_ERROR_NAMES, type TransportErrorCode, type VenueErrorCode } from './codes.js';

const keys = <K extends number>(table: Record<K, unknown>): readonly K[] =>
  Object.keys(table).map(Number) as K[];

/** Every code the venue answers with (an unknown one is `NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE`). */
export const VENUE_ERROR_CODES: readonly VenueErrorCode[] = keys(VENUE_ERROR_NAMES);
/**
 * The same row for every venue code (a table's default for the venue's codes, as a base class once
 * caught them all); spread the codes that differ after it.
 */
export function everyVenueCode<R>(row: R): Record<VenueErrorCode, R> {
  return Object.fromEntries(VENUE_ERROR_CODES.map((code) => [code, row])) as Record<VenueErrorCode, R>;
}
/** A venue answer, known or not: what carries `status` and `venueMessage`. */
export const VENUE_ANSWER_CODES: readonly (VenueErrorCode | 9900)[] = [...VENUE_ERROR_CODES, 9900];
/** 1000–1012: the request is malformed or breaks an intake rule. */
export const INVALID_REQUEST_CODES = [
  1000, 1001, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012,
] as const;
/** 1102, 1103, 1150: bad signature, not the order's key, admin-only route or suspended account. */
export const FORBIDDEN_CODES = [1102, 1103, 1150] as const;
/** 1201–1206: a conflict (duplicate id, stale nonce, collateral in use, stale boot session...). */
export const CONFLICT_CODES = [1201, 1202, 1203, 1204, 1205, 1206] as const;
/** 5001, 5002: a subsystem is unavailable, or the tree mirror diverges. */
export const UNAVAILABLE_CODES = [5001, 5002] as const;
/** Every transport verification code (6000s). */
export const TRANSPORT_ERROR_CODES: readonly TransportErrorCode[] = keys(TRANSPORT_CHECK);
/** No note can back it: too few, not final, on hold, or the named note is not free. */
export const INSUFFICIENT_NOTES_CODES = [7001, 7002, 7003, 7004] as const;
/** A value the caller passed is unusable (split amounts and a funding-address link included). */
export const PARAMETER_CODES = [9004, 7005, 7009] as const;
/** A ledger call failed (an error reply, or an unreachable ledger). */
export const LEDGER_ERROR_CODES = [8001, 8002] as const;
/** The dev faucet failed. */
export const FAUCET_CODES = [8005, 8006] as const;
