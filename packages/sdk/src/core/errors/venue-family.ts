/**
 * The family of a venue code this SDK does not know (a newer venue's): the known code whose
 * handling it gets, by its range, else by its HTTP status. The error keeps the venue's number
 * (`NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE`, context `venueCode`); tools map it as its family.
 */
import { isVenueErrorCode, type VenueErrorCode } from './codes.js';

export function venueFamilyOf(venueCode: number, status: number): VenueErrorCode {
  if (isVenueErrorCode(venueCode)) return venueCode;
  if (venueCode >= 1000 && venueCode < 1100) return 1000;
  if (venueCode >= 1200 && venueCode < 1300) return 1201;
  if (status === 401) return 1101;
  if (status === 403) return 1102;
  if (status === 404) return 1301;
  if (status === 409) return 1201;
  if (status === 429) return 1401;
  if (status === 503) return 5001;
  if (status >= 400 && status < 500) return 1000;
  return 5000;
}
