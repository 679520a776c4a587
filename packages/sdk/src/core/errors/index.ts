/** The SDK's one error vocabulary: codes, contexts, messages, fixes, the class and its guard. */
export * from './codes.js';
export type * from './context.js';
export { NOTES_SUMMARY, type NotesShortCode } from './messages.js';
export { NIGHTJAR_ERROR_FIXES, NOTE_NOT_FREE_FIXES, nightjarErrorFix, type FixTable } from './fixes.js';
export * from './error.js';
export * from './families.js';
export * from './venue.js';
export { venueFamilyOf } from './venue-family.js';
