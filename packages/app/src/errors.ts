/**
 * Every failure of the local API as an `ApiError` body with a stable `code`, an HTTP status and a
 * `fix` in the app's terms (as the CLI's messages name the command that fixes them). The SDK's
 * own stable codes (`NOTE_NOT_FREE`, `TRANSACTION_PENDING`...) pass through; a venue refusal
 * carries the venue's spec code as `venue_code`, a ledger refusal the ledger's.
 */
import {
  AccountSuspendedError,
  AuthenticationError,
  DepositPendingError,
  FaucetError,
  ForbiddenError,
  FundingAddressLinkError,
  InsufficientNotesError,
  JoinSplitAmountsError,
  LedgerError,
  LedgerUnavailableError,
  LedgerRefusedError,
  NetworkError,
  NoteNotFreeError,
  NoteHeldError,
  NotesPendingError,
  NotFoundError,
  NothingToMergeError,
  OrderNotModifiableError,
  ParameterError,
  ProofError,
  RateLimitError,
  SplitOutputsPendingError,
  TransactionPendingError,
  TransportError,
  UnavailableError,
  VenueRequestError,
  WalletDecryptError,
} from '@nightjar/sdk';
import type { ApiError } from './wire/types.js';

/** An error the app answers with: its status and body. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fix?: string,
    readonly venueCode?: number | string,
  ) {
    super(message);
  }

  body(): ApiError {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fix ? { fix: this.fix } : {}),
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
export const isAttestationFailure = (err: unknown): err is TransportError =>
  err instanceof TransportError && err.code !== 'TRANSPORT_CLOSED';

/** The stable error for any failure, naming the fix. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof TransportError && !isAttestationFailure(err))
    return new AppError(
      503,
      'VENUE_UNAVAILABLE',
      `the connection to the venue closed: ${text}`,
      'is the venue running (`npm start`)? the app reconnects and checks it again; try again shortly',
    );
  if (err instanceof TransportError)
    return new AppError(
      503,
      'ATTESTATION_FAILED',
      `the venue's transport attestation failed (${err.code}${err.check ? `, check (${err.check})` : ''}): ${text}`,
      'nothing was sent to the venue; see GET /api/v1/venue, and check ready.json (platform_root, compose_hash) against the venue you meant',
      err.code,
    );
  if (err instanceof DepositPendingError)
    return new AppError(
      504,
      err.code,
      text,
      'the note is in the wallet and backs orders once final: GET /api/v1/balances shows it',
    );
  if (err instanceof FaucetError)
    return err.code === 'FAUCET_UNAVAILABLE' && !err.retryable
      ? new AppError(
          403,
          'DEV_ONLY',
          text,
          "no faucet on this ledger: fund the wallet's funding account, then deposit without `faucet`",
          err.rpcCode,
        )
      : new AppError(err.retryable ? 503 : 400, err.code, text, undefined, err.rpcCode);
  if (err instanceof LedgerUnavailableError)
    return new AppError(
      503,
      err.code,
      text,
      'is the venue running (`npm start`)? then try again',
      err.rpcCode,
    );
  if (err instanceof LedgerError)
    return new AppError(
      502,
      err.code,
      text,
      'the ledger refused a read: try again; if it persists, see the venue log',
      err.rpcCode,
    );
  if (err instanceof JoinSplitAmountsError)
    return new AppError(400, err.code, text, 'ask less, or deposit more first');
  if (err instanceof NoteHeldError)
    return new AppError(
      409,
      'NOTE_HELD',
      text,
      `the new deposit backs orders after its random hold, at ${new Date(err.readyAt).toISOString()}: try again then`,
    );
  if (err instanceof NotesPendingError)
    return new AppError(
      409,
      'NOTES_PENDING',
      text,
      'a new note is final about 13 s after it lands (31 slots): try again shortly',
    );
  if (err instanceof NoteNotFreeError)
    return new AppError(
      409,
      err.code,
      text,
      err.reason === 'order'
        ? 'cancel the order it backs first (DELETE /api/v1/orders/{id})'
        : 'try again once the note is free (GET /api/v1/balances)',
    );
  if (err instanceof NothingToMergeError) return new AppError(409, err.code, text, 'nothing to do');
  if (err instanceof SplitOutputsPendingError || err instanceof TransactionPendingError)
    return new AppError(
      504,
      err.code,
      text,
      'it may still land: GET /api/v1/balances shows the notes once they are final',
    );
  if (err instanceof FundingAddressLinkError)
    return new AppError(
      409,
      err.code,
      text,
      'withdraw to a fresh address of yours, or confirm the link (`confirm_funding_link: true`)',
    );
  if (err instanceof InsufficientNotesError)
    return new AppError(
      409,
      'INSUFFICIENT_NOTES',
      text,
      'deposit more (POST /api/v1/deposits), or wait until notes locked in orders or settlements are free',
    );
  if (err instanceof ParameterError) return new AppError(400, 'BAD_REQUEST', text, fixOf(text));
  if (err instanceof OrderNotModifiableError)
    return new AppError(409, 'ORDER_NOT_MODIFIABLE', text, 'place a new order instead');
  if (err instanceof AccountSuspendedError)
    return new AppError(
      403,
      'ACCOUNT_SUSPENDED',
      `the venue refused: account suspended or not an admin (${err.code})`,
      'ask an operator to enable the account (POST /api/v1/operator/accounts/{api_key}/enable)',
      err.code,
    );
  if (err instanceof AuthenticationError)
    return new AppError(
      502,
      'VENUE_AUTH',
      `the venue refused the app's credentials (${err.code})`,
      "put the account's credentials in <data-dir>/app/credentials.json and restart the app",
      err.code,
    );
  if (err instanceof ForbiddenError)
    return new AppError(403, 'VENUE_FORBIDDEN', `the venue refused: ${text}`, undefined, err.code);
  if (err instanceof NotFoundError)
    return new AppError(404, 'NOT_FOUND', `the venue knows no such thing: ${text}`, undefined, err.code);
  if (err instanceof RateLimitError)
    return new AppError(
      429,
      'RATE_LIMITED',
      text,
      `wait ${err.retryAfterSeconds ?? 1} s and try again`,
      err.code,
    );
  if (err instanceof UnavailableError)
    return new AppError(503, 'VENUE_UNAVAILABLE', text, 'try again shortly', err.code);
  if (err instanceof VenueRequestError)
    return new AppError(
      err.status >= 400 && err.status < 500 ? 422 : 502,
      'VENUE_REFUSED',
      `the venue refused (${err.code}): ${text}`,
      undefined,
      err.code,
    );
  if (err instanceof LedgerRefusedError)
    return new AppError(
      502,
      'LEDGER_REFUSED',
      text,
      err.retryable ? 'the ledger is busy: try again' : 'nothing was spent; see GET /api/v1/balances',
      err.ledgerCode,
    );
  if (err instanceof NetworkError || isConnRefused(err))
    return new AppError(
      503,
      'VENUE_UNAVAILABLE',
      `the venue is unreachable: ${text}`,
      'is the venue running (`npm start`)? the app reconnects by itself',
    );
  if (err instanceof WalletDecryptError)
    return new AppError(500, 'WALLET', 'cannot open the wallet', 'check <data-dir>/app/wallet-password');
  if (err instanceof ProofError)
    return new AppError(500, 'PROOF_FAILED', `proof failed: ${text}`, 'try again');
  return new AppError(500, 'INTERNAL', text);
}

/** The SDK's parameter messages end with their fix after a colon; that part is the `fix`. */
function fixOf(text: string): string | undefined {
  const i = text.lastIndexOf(': ');
  return i > 0 ? text.slice(i + 2) : undefined;
}

function isConnRefused(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH';
}
