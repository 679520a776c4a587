/**
 * What the app answers for each SDK error code, in one exhaustive table (as the engine's
 * `settlement/ledger-codes.ts`): the HTTP status, the app's stable `code` on the wire and, where
 * it is not the SDK's, the message. The `fix` is the SDK's sentence with the app's hint
 * (`fix-hints.ts`). A code added to the SDK's `NightjarErrorCode` does not compile here until
 * it has its row.
 */
import {
  everyVenueCode,
  nightjarErrorName,
  venueCodeOf,
  type VenueAnswerError,
  TRANSPORT_CHECK,
  venueFamilyOf,
  type NightjarError,
  type NightjarErrorCode,
  type TransportErrorCode,
  type VenueErrorCode,
} from '@nightjar/sdk';

/** How the app answers one code. */
export interface AppRow<C extends NightjarErrorCode> {
  status: number | ((err: NightjarError<C>) => number);
  /** The app's stable code (never changed: clients branch on it). */
  appCode: string | ((err: NightjarError<C>) => string);
  /** The message, when it is not the SDK's. */
  message?: (err: NightjarError<C>) => string;
  /** The code of whoever refused (`venue_code`): the venue's, the ledger's, a transport check's. */
  venueCode?: (err: NightjarError<C>) => number | string;
}

export type AppTable = { [C in NightjarErrorCode]: AppRow<C> };

const REFUSED = {
  status: (err: VenueAnswerError) => (err.context.status >= 400 && err.context.status < 500 ? 422 : 502),
  appCode: 'VENUE_REFUSED',
  message: (err: VenueAnswerError) => `the venue refused (${venueCodeOf(err)}): ${err.message}`,
  venueCode: venueCodeOf,
} as const;
const FORBIDDEN = {
  status: 403,
  appCode: 'VENUE_FORBIDDEN',
  message: (err: VenueAnswerError) => `the venue refused: ${err.message}`,
  venueCode: venueCodeOf,
} as const;
const UNAVAILABLE = {
  status: 503,
  appCode: 'VENUE_UNAVAILABLE',
  venueCode: venueCodeOf,
} as const;

const VENUE_ROWS: Record<VenueErrorCode, AppRow<VenueErrorCode>> = {
  ...everyVenueCode(REFUSED),
  1101: {
    status: 502,
    appCode: 'VENUE_AUTH',
    message: (err: VenueAnswerError) => `the venue refused the app's credentials (${venueCodeOf(err)})`,
    venueCode: venueCodeOf,
  },
  1102: FORBIDDEN,
  1103: FORBIDDEN,
  1150: {
    status: 403,
    appCode: 'ACCOUNT_SUSPENDED',
    message: (err: VenueAnswerError) =>
      `the venue refused: account suspended or not an admin (${venueCodeOf(err)})`,
    venueCode: venueCodeOf,
  },
  1301: {
    status: 404,
    appCode: 'NOT_FOUND',
    message: (err: VenueAnswerError) => `the venue knows no such thing: ${err.message}`,
    venueCode: venueCodeOf,
  },
  1401: {
    status: 429,
    appCode: 'RATE_LIMITED',
    venueCode: venueCodeOf,
  },
  5001: UNAVAILABLE,
  5002: UNAVAILABLE,
};

/** A failed attestation check: nothing was sent to the venue. */
const ATTESTATION = {
  status: 503,
  appCode: 'ATTESTATION_FAILED',
  message: (err: NightjarError<TransportErrorCode>) => {
    const check = TRANSPORT_CHECK[err.code];
    return `the venue's transport attestation failed (${nightjarErrorName(err.code)}${check ? `, check (${check})` : ''}): ${err.message}`;
  },
  venueCode: (err: NightjarError<TransportErrorCode>) => nightjarErrorName(err.code),
} as const;
/** The SDK's own name is the app's code. */
const byName = <C extends NightjarErrorCode>(err: NightjarError<C>) => nightjarErrorName(err.code);
const NAMED = (status: number) => ({ status, appCode: byName });
const INTERNAL = { status: 500, appCode: 'INTERNAL' } as const;
const IN_FLIGHT = NAMED(504);
const FAUCET = {
  status: (err: NightjarError<8005 | 8006>) => (err.retryable ? 503 : 400),
  appCode: byName,
  venueCode: (err: NightjarError<8005 | 8006>) => err.context.rpcCode,
} as const;

export const APP_ERRORS: AppTable = {
  ...VENUE_ROWS,
  6001: ATTESTATION,
  6002: ATTESTATION,
  6003: ATTESTATION,
  6004: ATTESTATION,
  6005: ATTESTATION,
  6006: ATTESTATION,
  6007: ATTESTATION,
  6008: ATTESTATION,
  6009: ATTESTATION,
  6010: ATTESTATION,
  6011: ATTESTATION,
  6012: ATTESTATION,
  6013: ATTESTATION,
  6014: ATTESTATION,
  // A closed or refused socket: the venue is down or restarting, not a failed attestation.
  6015: {
    status: 503,
    appCode: 'VENUE_UNAVAILABLE',
    message: (err) => `the connection to the venue closed: ${err.message}`,
  },
  6016: ATTESTATION,
  7001: { status: 409, appCode: 'INSUFFICIENT_NOTES' },
  7002: { status: 409, appCode: 'NOTES_PENDING' },
  7003: { status: 409, appCode: 'NOTE_HELD' },
  7004: NAMED(409),
  7005: NAMED(400),
  7006: NAMED(409),
  7007: IN_FLIGHT,
  7008: NAMED(504),
  7009: NAMED(409),
  7010: { status: 409, appCode: 'ORDER_NOT_MODIFIABLE' },
  7011: {
    status: 500,
    appCode: 'WALLET',
    message: () => 'cannot open the wallet',
  },
  8001: { status: 502, appCode: byName, venueCode: (err) => err.context.rpcCode },
  8002: { status: 503, appCode: byName, venueCode: (err) => err.context.rpcCode },
  8003: {
    status: 502,
    appCode: 'LEDGER_REFUSED',
    venueCode: (err) => err.context.ledgerCode,
  },
  8004: IN_FLIGHT,
  // No faucet on a production ledger: a dev-only action.
  8005: {
    ...FAUCET,
    status: (err) => (err.retryable ? 503 : 403),
    appCode: (err) => (err.retryable ? 'FAUCET_UNAVAILABLE' : 'DEV_ONLY'),
  },
  8006: FAUCET,
  9001: {
    status: 503,
    appCode: 'VENUE_UNAVAILABLE',
    message: (err) => `the venue is unreachable: ${err.message}`,
  },
  9002: INTERNAL,
  9003: {
    status: 500,
    appCode: 'PROOF_FAILED',
    message: (err) => `proof failed: ${err.message}`,
  },
  9004: { status: 400, appCode: 'BAD_REQUEST' },
  9005: INTERNAL,
  9006: INTERNAL,
  9007: INTERNAL,
  // A code the app does not know: answered as its family (by range, else HTTP status).
  9900: {
    status: (err) => statusOf(familyRow(err), err as never),
    appCode: (err) => appCodeOf(familyRow(err), err as never),
    message: (err) => familyRow(err).message?.(err as never) ?? err.message,
    venueCode: (err) => err.context.venueCode,
  },
};

const familyRow = (err: NightjarError<9900>): AppRow<VenueErrorCode> =>
  VENUE_ROWS[venueFamilyOf(err.context.venueCode, err.context.status)];

export function statusOf<C extends NightjarErrorCode>(row: AppRow<C>, err: NightjarError<C>): number {
  return typeof row.status === 'function' ? row.status(err) : row.status;
}

export function appCodeOf<C extends NightjarErrorCode>(row: AppRow<C>, err: NightjarError<C>): string {
  return typeof row.appCode === 'function' ? row.appCode(err) : row.appCode;
}
