/**
 * Whether the same request may succeed later, for every code in one exhaustive table: fixed per
 * code, or read off the context where it depends on it (the ledger's JSON-RPC code).
 */
import type { NightjarErrorCode } from './codes.js';
import type { NightjarErrorContext } from './context.js';
import { venueFamilyOf } from './venue-family.js';

type RetryableTable = { [C in NightjarErrorCode]: boolean | ((context: NightjarErrorContext[C]) => boolean) };

/** JSON-RPC codes of a busy, unreachable or rate-limited ledger. */
const LEDGER_BUSY = ['-32007', '-32005', '-32008'];

/** Nothing was consumed; only a busy, unavailable or rate-limited ledger before landing may pass later. */
export const ledgerRefusalRetryable = ({ landed, ledgerCode }: NightjarErrorContext[8003]): boolean =>
  !landed && LEDGER_BUSY.includes(ledgerCode);

const VENUE_RETRYABLE = {
  1000: false,
  1001: false,
  1003: false,
  1004: false,
  1005: false,
  1006: false,
  1007: false,
  1008: false,
  1009: false,
  1010: false,
  1011: false,
  1012: false,
  1101: false,
  1102: false,
  1103: false,
  1150: false,
  1201: false,
  1202: false,
  1203: false,
  1204: false,
  1205: false,
  1206: false,
  1301: false,
  // Rate limited (wait `retryAfterSeconds`), verification at capacity, a subsystem down.
  1401: true,
  1402: true,
  4030: false,
  4290: false,
  5000: false,
  5001: true,
  5002: true,
} as const;

export const NIGHTJAR_ERROR_RETRYABLE: RetryableTable = {
  ...VENUE_RETRYABLE,
  6001: false,
  6002: false,
  6003: false,
  6004: false,
  6005: false,
  6006: false,
  6007: false,
  6008: false,
  6009: false,
  6010: false,
  6011: false,
  6012: false,
  6013: false,
  6014: false,
  6015: false,
  6016: false,
  7001: false,
  7002: false,
  7003: false,
  7004: false,
  7005: false,
  7006: false,
  7007: false,
  7008: true,
  7009: false,
  7010: false,
  7011: false,
  // Busy (-32007), or this address spent its read budget (-32008, after the client's own retries).
  8001: ({ rpcCode }) => rpcCode === -32007 || rpcCode === -32008,
  8002: true,
  8003: ledgerRefusalRetryable,
  8004: false,
  8005: ({ rpcCode }) => rpcCode === -32005,
  8006: ({ rpcCode }) => rpcCode === -32005,
  9001: true,
  9002: false,
  9003: false,
  9004: false,
  9005: false,
  9006: false,
  9007: false,
  9900: ({ venueCode, status }) => VENUE_RETRYABLE[venueFamilyOf(venueCode, status)],
};
