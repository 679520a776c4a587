/**
 * The error catalogue, exactly as the spec's table: code → HTTP status → default message.
 * Clients branch on `code`; messages may carry detail but never secrets.
 */
export const ERROR_CATALOGUE = {
  1000: { status: 400, message: 'bad request' },
  1001: { status: 400, message: 'malformed input' },
  1003: { status: 400, message: 'collateral below nominal cost plus fee' },
  1004: { status: 400, message: 'amount below market minimum' },
  1005: { status: 400, message: 'bid with zero price limit' },
  1006: { status: 400, message: 'note opening does not re-derive the signed note_commitment' },
  1007: { status: 400, message: 'expiry_slot exceeds maximum lock lifetime' },
  1008: { status: 400, message: 'viewing key is low-order or non-contributory' },
  1009: { status: 400, message: 'price limit is not a multiple of the market tick' },
  1010: { status: 400, message: 'merkle_root aged out of the recent-root window; re-prove and resubmit' },
  1011: { status: 400, message: 'collateral proof did not verify' },
  1012: { status: 400, message: 'expiry_slot already expired or inside the settlement buffer' },
  1101: { status: 401, message: 'missing, invalid, expired or revoked token' },
  1102: { status: 403, message: 'trading-key signature did not verify' },
  1103: { status: 403, message: 'trading key does not own the targeted order' },
  1150: { status: 403, message: 'forbidden' },
  1201: { status: 409, message: 'duplicate order id' },
  1202: { status: 409, message: 'nonce did not advance' },
  1203: { status: 409, message: 'replacement order id already booked' },
  1204: {
    status: 409,
    message: 'collateral commitment already reserved by a live or settlement-pending order',
  },
  1205: { status: 409, message: 'stale or unrelated boot session' },
  1206: { status: 409, message: 'change refused: would leave no enabled admin account' },
  1301: { status: 404, message: 'not found' },
  1401: { status: 429, message: 'rate limited' },
  1402: { status: 503, message: 'credential verification at capacity' },
  5000: { status: 500, message: 'internal error' },
  5001: { status: 503, message: 'required subsystem unavailable; new trading paused' },
  5002: { status: 503, message: 'tree mirror diverges from chain; do not build proofs from it' },
} as const satisfies Record<number, { status: number; message: string }>;

/** 1002 is reserved by the spec and never emitted, so it is not in the catalogue. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Stream-level codes that only ever appear in `error` frames, never as HTTP bodies. */
export const STREAM_ERROR_CODES = {
  4290: 'account over its concurrent-socket limit',
  4030: 'account switch attempted on an authenticated socket',
} as const;
export type StreamErrorCode = keyof typeof STREAM_ERROR_CODES;

/** The body of every error response and stream `error` frame. */
export interface ErrorEnvelope {
  code: ErrorCode | StreamErrorCode;
  message: string;
}

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'number' && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** A failure with a stable venue code; `message` defaults to the catalogue's and must hold no secrets. */
export class VenueError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Seconds a client should wait, for 429 and capacity refusals. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message?: string, options?: { retryAfterSeconds?: number; cause?: unknown }) {
    super(
      message ?? ERROR_CATALOGUE[code].message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'VenueError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  toEnvelope(): ErrorEnvelope {
    return { code: this.code, message: this.message };
  }
}
