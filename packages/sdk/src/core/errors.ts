/**
 * Typed errors, ccxt-style: one class per spec code family, each carrying the venue's `code`, the
 * HTTP `status` and whether retrying can help (`retryable`: 1401, 1402, 5001, 5002 and network
 * failures; everything else is fatal). Branch with `instanceof` or on `code`, never on `message`.
 * Messages never carry secrets (no token, key, note opening or seed).
 */
import type { ErrorCode, StreamErrorCode } from '@nightjar/protocol';
import { assetName, describeAmount, humanAmount } from './utils/asset-registry.js';

/** The root of every error the SDK throws (transport verification errors excepted, see `TransportError`). */
export class NightjarError extends Error {
  override name = 'NightjarError';
  /** Whether the same request may succeed later. */
  readonly retryable: boolean = false;
}

/** Options of a venue error. */
export interface VenueErrorOptions {
  /** Seconds the venue asked to wait (`Retry-After`). */
  retryAfterSeconds?: number;
  /** `x-request-id` of the response, for support. */
  requestId?: string;
}

/** An error the venue answered with: `{ code, message }` and an HTTP status (0 for stream frames). */
export class VenueRequestError extends NightjarError {
  override name = 'VenueRequestError';
  readonly retryAfterSeconds: number | undefined;
  readonly requestId: string | undefined;
  constructor(
    readonly code: number,
    readonly status: number,
    message: string,
    options: VenueErrorOptions = {},
  ) {
    super(`${message} (code ${code})`);
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.requestId = options.requestId;
  }
}

/** 1000–1012: the request is malformed or breaks an intake rule (1010: re-prove against a fresh root). */
export class InvalidRequestError extends VenueRequestError {
  override name = 'InvalidRequestError';
}
/** 1003: the note does not cover the order's nominal cost plus fee. */
export class InsufficientCollateralError extends InvalidRequestError {
  override name = 'InsufficientCollateralError';
}
/** 1011: the venue could not verify the collateral proof. */
export class InvalidProofError extends InvalidRequestError {
  override name = 'InvalidProofError';
}
/** 1101: missing, invalid, expired or revoked token, or bad credentials. */
export class AuthenticationError extends VenueRequestError {
  override name = 'AuthenticationError';
}
/** 1102, 1103, 1150: bad signature, not the order's key, admin-only route or suspended account. */
export class ForbiddenError extends VenueRequestError {
  override name = 'ForbiddenError';
}
/** 1150: the account is suspended (or the route is admin-only): stop, do not retry. */
export class AccountSuspendedError extends ForbiddenError {
  override name = 'AccountSuspendedError';
}
/** 1201–1206: a conflict (duplicate id, stale nonce, collateral in use, stale boot session...). */
export class ConflictError extends VenueRequestError {
  override name = 'ConflictError';
}
/** 1205: the order was signed for another boot session (the engine restarted). */
export class StaleSessionError extends ConflictError {
  override name = 'StaleSessionError';
}
/** 1301: no such order, batch, instrument or note (a foreign order reads the same). */
export class NotFoundError extends VenueRequestError {
  override name = 'NotFoundError';
}
/** 1401: rate limited; wait `retryAfterSeconds`. */
export class RateLimitError extends VenueRequestError {
  override name = 'RateLimitError';
  override readonly retryable = true;
}
/** 1402: credential verification at capacity; retry after a short jittered delay. */
export class CapacityError extends VenueRequestError {
  override name = 'CapacityError';
  override readonly retryable = true;
}
/** 5001, 5002: a subsystem is unavailable, or the tree mirror diverges (do not prove from it). */
export class UnavailableError extends VenueRequestError {
  override name = 'UnavailableError';
  override readonly retryable = true;
}
/** 5000: the venue failed internally. */
export class InternalError extends VenueRequestError {
  override name = 'InternalError';
}
/** Stream-only codes 4290 (too many sockets) and 4030 (account switch on a socket). */
export class StreamError extends VenueRequestError {
  override name = 'StreamError';
}

/** The network failed (connection refused or reset, a timeout): retryable. */
export class NetworkError extends NightjarError {
  override name = 'NetworkError';
  override readonly retryable = true;
}

/** The venue answered with a body that does not match the spec (`path: rule`, never a value). */
export class InvalidResponseError extends NightjarError {
  override name = 'InvalidResponseError';
}

/** A proof could not be made (bad inclusion path, prover crashed or closed). */
export class ProofError extends NightjarError {
  override name = 'ProofError';
}

/**
 * No note of the wallet can back the order (or the withdrawal) as asked. `fix`, when given, is
 * appended to the message: what would make it work (merge notes, deposit more).
 */
export class InsufficientNotesError extends NightjarError {
  override name = 'InsufficientNotesError';
  /** What is wrong, in the asset's units, without the fix (for a tool that names its own fix, as the CLI does). */
  summary: string;
  constructor(
    readonly mint: string,
    readonly required: bigint,
    readonly available: bigint,
    fix?: string,
  ) {
    const summary = `no free ${assetName(mint)} note covers ${describeAmount(mint, required)} (largest free note: ${describeAmount(mint, available)})`;
    super(
      `${summary}: ${fix ?? `deposit more (deposit(client, { asset: '${assetName(mint)}', amount: '${humanAmount(mint, required)}' })), or merge notes (mergeNotes)`}`,
    );
    this.summary = summary;
  }
}

/**
 * Notes that would cover the order exist but the venue's tree does not have them yet (a fresh
 * deposit or change note that is not finalized): retry once they are, or deposit another.
 */
export class NotesPendingError extends InsufficientNotesError {
  override name = 'NotesPendingError';
  constructor(mint: string, required: bigint, available: bigint, waitedMs: number) {
    super(mint, required, available);
    this.summary =
      `no free ${assetName(mint)} note covering ${describeAmount(mint, required)} is in the venue's tree yet ` +
      `(waited ${(waitedMs / 1000).toFixed(1)} s; largest usable note: ${describeAmount(mint, available)})`;
    this.message = `${this.summary}: a new note backs orders once final, about 13 s after it lands; try again then, or raise noteWaitMs`;
  }
}

/**
 * The only notes that would back the order are deposits on their fresh-note hold
 * (`freshNoteHold`), and it ends later than the order may wait. `readyAt`: when the first ends.
 */
export class NoteHeldError extends InsufficientNotesError {
  override name = 'NoteHeldError';
  constructor(
    mint: string,
    required: bigint,
    readonly readyAt: number,
  ) {
    super(mint, required, 0n);
    this.summary =
      `the ${assetName(mint)} note covering ${describeAmount(mint, required)} is a new deposit on its ` +
      `random hold until ${new Date(readyAt).toISOString()}`;
    this.message = `${this.summary}: the hold keeps a deposit's timing from naming the order it backs (freshNoteHold); try again then`;
  }
}

/** A value the caller passed is unusable (a decimal with too many places, a price off the tick...). */
export class ParameterError extends NightjarError {
  override name = 'ParameterError';
}

/**
 * A withdrawal to an address that funded this wallet's deposits, without `linkFundingAddress:
 * true`: on chain it would tie the withdrawal (amount, time) to those deposits. Nothing was sent.
 */
export class FundingAddressLinkError extends ParameterError {
  override name = 'FundingAddressLinkError';
  readonly code = 'LINKS_FUNDING_ADDRESS';
  constructor(readonly recipient: string) {
    super(
      `recipient ${recipient} funded this wallet's deposits: a withdrawal to it is public on the ledger and ` +
        'links this withdrawal (its amount and time) to every deposit from that address, and so to this ' +
        'wallet. Withdraw to a fresh address, or pass linkFundingAddress: true to accept the link.',
    );
  }
}

/** Stable codes of the note-management errors (splits, merges, note preparation). */
export type NoteErrorCode =
  | 'NOTE_NOT_FREE'
  | 'JOIN_SPLIT_AMOUNTS'
  | 'NOTHING_TO_MERGE'
  | 'LEDGER_REFUSED'
  | 'TRANSACTION_PENDING'
  | 'SPLIT_OUTPUTS_PENDING';

/** Why a note the caller named cannot be split, merged or withdrawn now. */
export type NoteNotFreeReason =
  /** Not a note of this wallet, or of another mint. */
  | 'unknown'
  /** Spent on the ledger, or being consumed (a fill, a withdrawal or a split this wallet saw). */
  | 'spent'
  /** Backs a live order of this wallet. */
  | 'order'
  /** Locked on the ledger (a match settling, or a partial fill's re-locked change). */
  | 'locked'
  /** Promised to an order, a split or a withdrawal in flight in this process. */
  | 'reserved'
  /** Its deposit or split has not landed: no leaf yet. */
  | 'pending';

const NOT_FREE_TEXT: Record<NoteNotFreeReason, string> = {
  unknown: 'it is not a note of this wallet in that mint',
  spent: 'it is spent or being consumed',
  order: 'it backs a live order (cancel the order first)',
  locked: 'it is locked on the ledger while a match settles or an order continues',
  reserved: 'an order, split or withdrawal in flight is using it',
  pending: 'it has no leaf in the tree yet',
};

/**
 * The note named (`commitment`) cannot be used now; `reason` says why. A subclass of
 * `InsufficientNotesError` (with `required` the note's value), so code that handles that keeps working.
 */
export class NoteNotFreeError extends InsufficientNotesError {
  override name = 'NoteNotFreeError';
  readonly code = 'NOTE_NOT_FREE' satisfies NoteErrorCode;
  constructor(
    mint: string,
    readonly commitment: string,
    readonly reason: NoteNotFreeReason,
    amount: bigint,
    available: bigint,
  ) {
    super(mint, amount, available);
    this.message = `note ${commitment} cannot be used: ${NOT_FREE_TEXT[reason]}`;
    this.summary = this.message;
  }
}

/**
 * The amounts of a split or merge do not work: the new notes must be 1 to 8 positive u64 amounts
 * adding up exactly to the notes consumed (`inputTotal`). Nothing was sent.
 */
export class JoinSplitAmountsError extends ParameterError {
  override name = 'JoinSplitAmountsError';
  readonly code = 'JOIN_SPLIT_AMOUNTS' satisfies NoteErrorCode;
  constructor(
    message: string,
    readonly inputTotal: bigint,
    readonly outputTotal: bigint,
  ) {
    super(message);
  }
}

/** A merge needs at least two free notes of the mint; `count` is how many there are. */
export class NothingToMergeError extends NightjarError {
  override name = 'NothingToMergeError';
  readonly code = 'NOTHING_TO_MERGE' satisfies NoteErrorCode;
  constructor(
    readonly mint: string,
    readonly count: number,
  ) {
    super(
      `a merge needs at least 2 free ${assetName(mint)} notes (free: ${count}): nothing to merge (mergeCandidates lists what would)`,
    );
  }
}

/**
 * The ledger refused a transaction the SDK sent (`instruction`: `join_split`, `withdraw`,
 * `deposit`). `ledgerCode` is the ledger's instruction error code (`NoteLocked`, `NoteSpent`,
 * `UnknownRoot`, `InvalidProof`...) when it landed with an error (`landed`), or the JSON-RPC error
 * code (`-32002`, `-32007`...) when it was refused before landing. Either way nothing it would
 * have consumed was consumed. Retryable when the ledger was busy, unavailable or rate limited
 * (-32007, -32005, -32008).
 */
export class LedgerRefusedError extends NightjarError {
  override name = 'LedgerRefusedError';
  readonly code = 'LEDGER_REFUSED' satisfies NoteErrorCode;
  override readonly retryable: boolean;
  constructor(
    readonly instruction: string,
    readonly ledgerCode: string,
    readonly landed: boolean,
    readonly signature: string,
    options?: ErrorOptions,
  ) {
    super(`${instruction} refused by the ledger: ${ledgerCode}`, options);
    this.retryable = !landed && ['-32007', '-32005', '-32008'].includes(ledgerCode);
  }
}

/**
 * A transaction was sent but had not landed when the wait ended (a slow or silent ledger). It may
 * still land: `syncWallet` then finds its outputs (and its inputs spent) from the ledger.
 */
export class TransactionPendingError extends NightjarError {
  override name = 'TransactionPendingError';
  readonly code = 'TRANSACTION_PENDING' satisfies NoteErrorCode;
  constructor(
    readonly instruction: string,
    readonly signature: string,
    readonly waitedMs: number,
    options?: ErrorOptions,
  ) {
    super(`${instruction} ${signature} sent, not landed after ${waitedMs} ms; it may still land`, options);
  }
}

/**
 * A split or merge landed (its outputs are in the wallet, `commitments`) but the venue's tree did
 * not have them within the wait, so they cannot back orders yet (they will once finalized).
 */
export class SplitOutputsPendingError extends NightjarError {
  override name = 'SplitOutputsPendingError';
  readonly code = 'SPLIT_OUTPUTS_PENDING' satisfies NoteErrorCode;
  constructor(
    readonly signature: string,
    readonly commitments: readonly string[],
    readonly waitedMs: number,
  ) {
    super(
      `join-split ${signature} landed, but the venue's tree lacks its outputs after ${waitedMs} ms (retry once finalized)`,
    );
  }
}

/**
 * A deposit landed (its note is in the wallet, `commitment`) but the venue's tree did not have the
 * note within the wait (`deposit`'s `waitMs`), so it cannot back an order yet. Nothing is lost:
 * it backs orders once finalized (about 13 s after landing on a 400 ms-slot ledger); placing an
 * order waits for it (`noteWaitMs`).
 */
export class DepositPendingError extends NightjarError {
  override name = 'DepositPendingError';
  readonly code = 'DEPOSIT_PENDING';
  override readonly retryable = true;
  constructor(
    readonly signature: string,
    readonly commitment: string,
    readonly waitedMs: number,
  ) {
    super(
      `deposit ${signature} landed, but the venue's tree lacked its note after ${(waitedMs / 1000).toFixed(1)} s: ` +
        `the note is in the wallet and backs orders once final; wait longer (deposit's \`waitMs\`), ` +
        `or check that the venue follows the ledger (GET /status)`,
    );
  }
}

/** Stable codes of the dev faucet's errors. */
export type FaucetErrorCode =
  /** No faucet: a production ledger (`--no-dev`), or the ledger is unreachable (`retryable`). */
  | 'FAUCET_UNAVAILABLE'
  /** The faucet refused the request (an unknown mint, an amount beyond u64). */
  | 'FAUCET_REFUSED';

/**
 * `requestFaucet` failed: `code` says whether there is no faucet (`FAUCET_UNAVAILABLE`) or it
 * refused the request (`FAUCET_REFUSED`); `rpcCode` is the ledger's JSON-RPC code.
 */
export class FaucetError extends NightjarError {
  override name = 'FaucetError';
  override readonly retryable: boolean;
  constructor(
    readonly code: FaucetErrorCode,
    readonly rpcCode: number,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.retryable = rpcCode === -32005;
  }
}

/** Stable codes of a failed ledger call (a read, or a dev call such as the faucet's airdrop). */
export type LedgerErrorCode =
  /** The ledger answered with a JSON-RPC error (`rpcCode`). */
  | 'LEDGER_ERROR'
  /** The ledger could not be reached or did not answer in time (`retryable`). */
  | 'LEDGER_UNAVAILABLE';

/**
 * A ledger call (`method`: `getNonce`, `getLeaves`, `getNoteStatuses`...) failed with the
 * ledger's JSON-RPC error `rpcCode` (`-32602` invalid params, `-32603` internal...; `-32603` too
 * when a ledger passed to `createClient` threw something else, kept as `cause`). Retryable only
 * when the ledger was busy (`-32007`) or this address spent its read budget (`-32008`, after the
 * client's own retries). Transactions the SDK sends are refused with
 * `LedgerRefusedError` instead; `LedgerUnavailableError` is the subclass for an unreachable ledger.
 */
export class LedgerError extends NightjarError {
  override name = 'LedgerError';
  readonly code: LedgerErrorCode = 'LEDGER_ERROR';
  override readonly retryable: boolean;
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.retryable = rpcCode === -32007 || rpcCode === -32008;
  }
}

/**
 * The ledger at `url` could not be reached (connection refused or reset, a closed ledger) or did
 * not answer in time; `rpcCode` is `-32005` (unreachable) or `-32004` (timed out). Retryable; the
 * message names the fix: is the venue running (`npm start`)?
 */
export class LedgerUnavailableError extends LedgerError {
  override name = 'LedgerUnavailableError';
  override readonly code: LedgerErrorCode = 'LEDGER_UNAVAILABLE';
  override readonly retryable = true;
  constructor(
    method: string,
    readonly url: string | undefined,
    rpcCode: number,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(
      method,
      rpcCode,
      `the ledger${url ? ` at ${url}` : ''} is unavailable (${method}: ${detail}): ` +
        'is the venue running (`npm start`)? then try again',
      options,
    );
  }
}

/**
 * The order cannot be modified: it is no longer resting (filled, cancelled, expired, failed) or
 * is settling. `status` is the wallet's view of it after re-reading it; place a new order instead.
 */
export class OrderNotModifiableError extends NightjarError {
  override name = 'OrderNotModifiableError';
  constructor(
    readonly orderId: string,
    readonly status: string,
    options?: ErrorOptions,
  ) {
    super(`order ${orderId} is ${status}: it cannot be modified (place a new order instead)`, options);
  }
}

/** The wallet file cannot be opened (wrong password, or a damaged file). */
export class WalletDecryptError extends NightjarError {
  override name = 'WalletDecryptError';
}

/** Every code the venue answers with: the spec's (`ERROR_CATALOGUE`) and the stream-only ones. */
export type VenueErrorCode = ErrorCode | StreamErrorCode;

/** The class of each venue code: `venueError` builds it, `isNightjarError` narrows to it. */
const VENUE_ERROR_CLASSES = {
  1000: InvalidRequestError,
  1001: InvalidRequestError,
  1003: InsufficientCollateralError,
  1004: InvalidRequestError,
  1005: InvalidRequestError,
  1006: InvalidRequestError,
  1007: InvalidRequestError,
  1008: InvalidRequestError,
  1009: InvalidRequestError,
  1010: InvalidRequestError,
  1011: InvalidProofError,
  1012: InvalidRequestError,
  1101: AuthenticationError,
  1102: ForbiddenError,
  1103: ForbiddenError,
  1150: AccountSuspendedError,
  1201: ConflictError,
  1202: ConflictError,
  1203: ConflictError,
  1204: ConflictError,
  1205: StaleSessionError,
  1206: ConflictError,
  1301: NotFoundError,
  1401: RateLimitError,
  1402: CapacityError,
  4030: StreamError,
  4290: StreamError,
  5000: InternalError,
  5001: UnavailableError,
  5002: UnavailableError,
} as const satisfies Record<VenueErrorCode, typeof VenueRequestError>;

/** The error class the SDK throws for a venue code (`VenueErrorOf<1003>` is `InsufficientCollateralError`). */
export type VenueErrorOf<C extends VenueErrorCode> = InstanceType<(typeof VENUE_ERROR_CLASSES)[C]> & {
  readonly code: C;
};

function isVenueErrorCode(code: number): code is VenueErrorCode {
  return Object.hasOwn(VENUE_ERROR_CLASSES, code);
}

/**
 * Whether `e` is an error the SDK threw, and with `code` whether it is the venue's answer with that
 * code, narrowed to its class (in the manner of `@solana/kit`'s `isSolanaError`).
 *
 * @example
 * if (isNightjarError(err, 1401)) await sleep(err.retryAfterSeconds ?? 1); // err: RateLimitError
 */
export function isNightjarError(e: unknown): e is NightjarError;
export function isNightjarError<C extends VenueErrorCode>(e: unknown, code: C): e is VenueErrorOf<C>;
export function isNightjarError(e: unknown, code?: VenueErrorCode): boolean {
  if (code === undefined) return e instanceof NightjarError;
  return e instanceof VENUE_ERROR_CLASSES[code] && e.code === code;
}

/** Builds the typed error for a venue `{code, message}` and its HTTP status. */
export function venueError(
  code: number,
  status: number,
  message: string,
  options: VenueErrorOptions = {},
): VenueRequestError {
  const args = [code, status, message, options] as const;
  if (isVenueErrorCode(code)) return new VENUE_ERROR_CLASSES[code](...args);
  // A code the spec does not name: classify by its family, else by status.
  if (code >= 1000 && code < 1100) return new InvalidRequestError(...args);
  if (code >= 1200 && code < 1300) return new ConflictError(...args);
  if (status === 401) return new AuthenticationError(...args);
  if (status === 403) return new ForbiddenError(...args);
  if (status === 404) return new NotFoundError(...args);
  if (status === 409) return new ConflictError(...args);
  if (status === 429) return new RateLimitError(...args);
  if (status === 503) return new UnavailableError(...args);
  if (status >= 400 && status < 500) return new InvalidRequestError(...args);
  return new InternalError(...args);
}
