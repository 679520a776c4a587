/**
 * The typed context of each code: what a program may read off the error, never a secret (no
 * token, key, note opening or seed). Free-text `detail` is a message part the throw site wrote.
 */
import type { SdkErrorCode, TransportErrorCode, VenueErrorCode } from './codes.js';

/** What the venue answered with besides its code. */
export interface VenueErrorContext {
  /** The HTTP status (0 for stream frames). */
  status: number;
  /** The venue's `message`. */
  venueMessage: string;
  /** Seconds the venue asked to wait (`Retry-After`). */
  retryAfterSeconds?: number;
  /** `x-request-id` of the response, for support. */
  requestId?: string;
}

/** A code the SDK does not know: the venue's number, and its answer. */
export interface UnknownVenueCodeContext extends VenueErrorContext {
  venueCode: number;
}

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

export type EventLogFailure =
  'malformed' | 'digest_mismatch' | 'retyped_compose_hash' | 'compose_hash_count' | 'replay_mismatch';

/** A message the throw site wrote (no secret in it). */
export interface DetailContext {
  detail: string;
}

/** Every note-shortage code carries these (amounts in the mint's base units). */
export interface NotesShortContext {
  mint: string;
  required: bigint;
  available: bigint;
}

interface SdkErrorContexts {
  6005: { tcbStatus: string };
  6009: DetailContext & { reason: EventLogFailure };
  /** `mrtd`, `rtmr0`, `rtmr1` or `rtmr2` (transport's `MeasurementRegister`). */
  6011: { register: string };
  7001: NotesShortContext;
  7002: NotesShortContext & { waitedMs: number };
  /** `readyAt`: when the first hold ends (ms since the epoch). */
  7003: NotesShortContext & { readyAt: number };
  7004: NotesShortContext & { commitment: string; reason: NoteNotFreeReason };
  7005: DetailContext & { inputTotal: bigint; outputTotal: bigint };
  7006: { mint: string; count: number };
  7007: { signature: string; commitments: readonly string[]; waitedMs: number };
  7008: { signature: string; commitment: string; waitedMs: number };
  7009: { recipient: string };
  /** `status`: the wallet's view of the order after re-reading it. */
  7010: { orderId: string; status: string };
  /** `method`: `getNonce`, `getLeaves`...; `rpcCode`: the ledger's JSON-RPC error code. */
  8001: DetailContext & { method: string; rpcCode: number };
  /** `rpcCode`: `-32005` (unreachable) or `-32004` (timed out). */
  8002: DetailContext & { method: string; url: string | undefined; rpcCode: number };
  /**
   * `ledgerCode`: the ledger's instruction error code (`NoteLocked`...) when it `landed` with an
   * error, or the JSON-RPC error code (`-32002`...) when it was refused before landing.
   */
  8003: { instruction: string; ledgerCode: string; landed: boolean; signature: string };
  8004: { instruction: string; signature: string; waitedMs: number };
  8005: DetailContext & { rpcCode: number };
  8006: DetailContext & { rpcCode: number };
  9005: { dropped: number };
  9900: UnknownVenueCodeContext;
}

/** The codes whose context is only a `detail` message. */
type DetailCodes = Exclude<SdkErrorCode, keyof SdkErrorContexts>;

/** The context of each code (`NightjarErrorContext[7004]` is NOTE_NOT_FREE's). */
export type NightjarErrorContext = SdkErrorContexts &
  Record<DetailCodes, DetailContext> &
  Record<VenueErrorCode, VenueErrorContext>;

/** The transport codes (their contexts vary: a `detail`, or the TCB status, register...). */
export type TransportContext = NightjarErrorContext[TransportErrorCode];
