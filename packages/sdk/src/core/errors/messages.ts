/**
 * The message of every code, in one exhaustive table: a code added to `NightjarErrorCode` does not
 * compile here until it has its message. A message says what went wrong; what to do is the code's
 * fix (`fixes.ts`). Messages may change; codes do not. No secrets.
 */
import { assetName, describeAmount } from '../utils/asset-registry.js';
import type { NightjarErrorCode, SdkErrorCode, VenueErrorCode } from './codes.js';
import type { DetailContext, NightjarErrorContext, NoteNotFreeReason, VenueErrorContext } from './context.js';

type MessageTable = { [C in NightjarErrorCode]: (context: NightjarErrorContext[C]) => string };

const NOT_FREE_TEXT: Record<NoteNotFreeReason, string> = {
  unknown: 'it is not a note of this wallet in that mint',
  spent: 'it is spent or being consumed',
  order: 'it backs a live order',
  locked: 'it is locked on the ledger while a match settles or an order continues',
  reserved: 'an order, split or withdrawal in flight is using it',
  pending: 'it has no leaf in the tree yet',
};

/** The codes of a note shortage. */
export type NotesShortCode = 7001 | 7002 | 7003 | 7004;

/** What is wrong, in the asset's units (the messages of the note-shortage codes). */
export const NOTES_SUMMARY: { [C in NotesShortCode]: (context: NightjarErrorContext[C]) => string } = {
  7001: ({ mint, required, available }) =>
    `no free ${assetName(mint)} note covers ${describeAmount(mint, required)} (largest free note: ${describeAmount(mint, available)})`,
  7002: ({ mint, required, available, waitedMs }) =>
    `no free ${assetName(mint)} note covering ${describeAmount(mint, required)} is in the venue's tree yet ` +
    `(waited ${(waitedMs / 1000).toFixed(1)} s; largest usable note: ${describeAmount(mint, available)})`,
  7003: ({ mint, required, readyAt }) =>
    `the ${assetName(mint)} note covering ${describeAmount(mint, required)} is a new deposit on its ` +
    `random hold until ${new Date(readyAt).toISOString()}`,
  7004: ({ commitment, reason }) => `note ${commitment} cannot be used: ${NOT_FREE_TEXT[reason]}`,
};

const detail = ({ detail }: DetailContext): string => detail;
const venue =
  (code: VenueErrorCode) =>
  ({ venueMessage }: VenueErrorContext): string =>
    `${venueMessage} (code ${code})`;

const VENUE_MESSAGES = {
  1000: venue(1000),
  1001: venue(1001),
  1003: venue(1003),
  1004: venue(1004),
  1005: venue(1005),
  1006: venue(1006),
  1007: venue(1007),
  1008: venue(1008),
  1009: venue(1009),
  1010: venue(1010),
  1011: venue(1011),
  1012: venue(1012),
  1101: venue(1101),
  1102: venue(1102),
  1103: venue(1103),
  1150: venue(1150),
  1201: venue(1201),
  1202: venue(1202),
  1203: venue(1203),
  1204: venue(1204),
  1205: venue(1205),
  1206: venue(1206),
  1301: venue(1301),
  1401: venue(1401),
  1402: venue(1402),
  4030: venue(4030),
  4290: venue(4290),
  5000: venue(5000),
  5001: venue(5001),
  5002: venue(5002),
} satisfies Record<VenueErrorCode, unknown>;

const SDK_MESSAGES: { [C in SdkErrorCode]: (context: NightjarErrorContext[C]) => string } = {
  6001: detail,
  6002: detail,
  6003: detail,
  6004: detail,
  6005: ({ tcbStatus }) => `platform TCB status is ${tcbStatus}, not UpToDate`,
  6006: detail,
  6007: detail,
  6008: detail,
  6009: detail,
  6010: detail,
  6011: ({ register }) => `the quote's ${register.toUpperCase()} is not the pinned value`,
  6012: detail,
  6013: detail,
  6014: detail,
  6015: detail,
  6016: detail,
  7001: (c) => NOTES_SUMMARY[7001](c),
  7002: (c) => NOTES_SUMMARY[7002](c),
  // Why the hold: it keeps a deposit's timing from naming the order it backs.
  7003: (c) => NOTES_SUMMARY[7003](c),
  7004: (c) => NOTES_SUMMARY[7004](c),
  7005: detail,
  7006: ({ mint, count }) =>
    `a merge needs at least 2 free ${assetName(mint)} notes (free: ${count}): nothing to merge`,
  7007: ({ signature, waitedMs }) =>
    `join-split ${signature} landed, but the venue's tree lacks its outputs after ${waitedMs} ms`,
  7008: ({ signature, waitedMs }) =>
    `deposit ${signature} landed, but the venue's tree lacked its note after ${(waitedMs / 1000).toFixed(1)} s`,
  7009: ({ recipient }) =>
    `recipient ${recipient} funded this wallet's deposits: a withdrawal to it is public on the ledger and ` +
    'links this withdrawal (its amount and time) to every deposit from that address, and so to this ' +
    'wallet',
  7010: ({ orderId, status }) => `order ${orderId} is ${status}: it cannot be modified`,
  7011: detail,
  8001: detail,
  8002: ({ method, url, detail }) =>
    `the ledger${url ? ` at ${url}` : ''} is unavailable (${method}: ${detail})`,
  8003: ({ instruction, ledgerCode }) => `${instruction} refused by the ledger: ${ledgerCode}`,
  8004: ({ instruction, signature, waitedMs }) =>
    `${instruction} ${signature} sent, not landed after ${waitedMs} ms; it may still land`,
  8005: detail,
  8006: detail,
  9001: detail,
  9002: detail,
  9003: detail,
  9004: detail,
  9005: ({ dropped }) => `the stream's event buffer overflowed: ${dropped} event(s) dropped`,
  9006: detail,
  9007: detail,
  9900: ({ venueMessage, venueCode }) => `${venueMessage} (code ${venueCode})`,
};

export const NIGHTJAR_ERROR_MESSAGES: MessageTable = { ...VENUE_MESSAGES, ...SDK_MESSAGES };
