/** The SDK's one error vocabulary: codes, contexts, messages, the class and its guard. */
export * from './codes.js';
export type * from './context.js';
export { NOTES_SUMMARY, type NotesShortCode } from './messages.js';
export * from './error.js';
export * from './families.js';
export * from './venue.js';
export { venueFamilyOf } from './venue-family.js';
