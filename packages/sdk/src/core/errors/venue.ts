/** Errors the venue answered with: `{ code, message }` and an HTTP status (0 for stream frames). */
import { isVenueErrorCode, NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE, type VenueErrorCode } from './codes.js';
import { NightjarError } from './error.js';

/** Options of a venue error. */
export interface VenueErrorOptions {
  /** Seconds the venue asked to wait (`Retry-After`). */
  retryAfterSeconds?: number;
  /** `x-request-id` of the response, for support. */
  requestId?: string;
}

/** A venue answer: a spec code, or one this SDK does not know. */
export type VenueAnswerError =
  NightjarError<VenueErrorCode> | NightjarError<typeof NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE>;

/**
 * Builds the error for a venue `{code, message}` and its HTTP status. A code the spec does not
 * name is `NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE` with the venue's number as `context.venueCode`
 * (its family, by range or status, is `venueFamilyOf`).
 */
export function venueError(
  code: number,
  status: number,
  message: string,
  options: VenueErrorOptions = {},
): VenueAnswerError {
  const context = { status, venueMessage: message, ...definedOnly(options) };
  if (isVenueErrorCode(code)) return new NightjarError(code, context);
  return new NightjarError(NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE, { ...context, venueCode: code });
}

/** The venue's own number of a venue answer (an unknown code keeps it as `context.venueCode`). */
export function venueCodeOf(err: VenueAnswerError): number {
  return err.code === NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE ? err.context.venueCode : err.code;
}

function definedOnly(options: VenueErrorOptions): VenueErrorOptions {
  return {
    ...(options.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: options.retryAfterSeconds }),
    ...(options.requestId === undefined ? {} : { requestId: options.requestId }),
  };
}
