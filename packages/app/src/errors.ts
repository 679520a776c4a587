/**
 * Every failure of the local API as an `ApiError` body with a stable `code`, an HTTP status and a
 * `fix`: the SDK's sentence, with the app's route or file in parentheses (`fix-hints.ts`); then
 * `fix_plain` is the sentence alone (what a screen shows) and `hint` the parenthesised part. The SDK's
 * own stable codes (`NOTE_NOT_FREE`, `TRANSACTION_PENDING`...) pass through; a venue refusal
 * carries the venue's spec code as `venue_code`, a ledger refusal the ledger's.
 */
import {
  isNightjarError,
  NightjarError,
  NIGHTJAR_ERROR__NETWORK,
  TRANSPORT_ERROR_CODES,
  type NightjarErrorCode,
  type TransportErrorCode,
} from '@nightjar/sdk';
import type { ApiError } from './wire/types.js';
import { APP_ERRORS, appCodeOf, statusOf, type AppRow } from './error-table.js';
import { appHint } from './fix-hints.js';

/** An error the app answers with: its status and body. */
export class AppError extends Error {
  /** What the API answers as `fix`: the sentence, then the hint in parentheses when there is one. */
  readonly fix?: string;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** What to do, one plain sentence (what a screen shows). */
    readonly fixPlain?: string,
    readonly venueCode?: number | string,
    /** The app's own how-to for API clients (a route or a file). */
    readonly hint?: string,
  ) {
    super(message);
    if (fixPlain) this.fix = hint ? `${fixPlain} (${hint})` : fixPlain;
  }

  body(): ApiError {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fix ? { fix: this.fix } : {}),
        ...(this.fixPlain && this.hint ? { fix_plain: this.fixPlain, hint: this.hint } : {}),
        ...(this.venueCode === undefined ? {} : { venue_code: this.venueCode }),
      },
    };
  }
}

export const badRequest = (message: string, fix?: string) => new AppError(400, 'BAD_REQUEST', message, fix);

/**
 * A transport error that says the venue is not the attested one (a failed check (a)–(d), bad
 * evidence or TLS). A closed or refused socket (`TRANSPORT_CLOSED`: the venue is down or
 * restarting) is not: it is retried, not held against the venue.
 */
export const isAttestationFailure = (err: unknown): err is NightjarError<TransportErrorCode> =>
  isNightjarError(err, TRANSPORT_ERROR_CODES) && err.codeName !== 'TRANSPORT_CLOSED';

/** The stable error for any failure, naming the fix (the SDK's errors by their code: `error-table.ts`). */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isNightjarError(err)) return fromSdkError(err);
  const text = err instanceof Error ? err.message : String(err);
  if (isConnRefused(err)) return fromSdkError(new NightjarError(NIGHTJAR_ERROR__NETWORK, { detail: text }));
  return new AppError(500, 'INTERNAL', text);
}

function fromSdkError<C extends NightjarErrorCode>(err: NightjarError<C>): AppError {
  const row = APP_ERRORS[err.code] as AppRow<C>;
  return new AppError(
    statusOf(row, err),
    appCodeOf(row, err),
    row.message ? row.message(err) : err.message,
    err.fix,
    row.venueCode?.(err),
    appHint(err),
  );
}

function isConnRefused(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH';
}
