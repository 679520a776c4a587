/**
 * What to do about every code, one sentence each, in one exhaustive table: the action, in words
 * every surface can show (the SDK's `err.fix`, the CLI's line, the app's `fix`), never a surface's
 * own command, route or call (each surface adds its hint after it, in parentheses). A code added
 * to `NightjarErrorCode` does not compile here until it has its fix. No secrets.
 */
import { assetName } from '../utils/asset-registry.js';
import type { NightjarErrorCode, SdkErrorCode, VenueErrorCode } from './codes.js';
import type { NightjarErrorContext, NoteNotFreeReason } from './context.js';
import { ledgerRefusalRetryable } from './retryable.js';
import { venueFamilyOf } from './venue-family.js';

type Fix<C extends NightjarErrorCode> = string | ((context: NightjarErrorContext[C]) => string);
export type FixTable = { [C in NightjarErrorCode]: Fix<C> };

const BUSY = 'Try again shortly: the venue is busy.';
const ATTESTATION_A = 'Check the pinned root and the collateral source; nothing was sent.';
const ATTESTATION_B = 'Do not use this connection: someone else terminates it; nothing was sent.';
const ATTESTATION_C =
  'Check the pinned compose hash and measurements against the release you audited; nothing was sent.';
const ATTESTATION_D =
  'Verify again (the venue may have restarted); if it fails again, do not use this venue.';
const VENUE_DOWN = 'Check that the venue is running, then try again.';

const VENUE_FIXES = {
  1000: 'Correct the request; the message says what is wrong.',
  1001: 'Correct the request; the message says what is wrong.',
  1003: 'Back the order with a note that covers its cost plus the fee.',
  1004: "Ask at least the market's minimum amount.",
  1005: 'Give a bid a price limit above zero.',
  1006: "Sync the wallet and try again: the note's opening does not match its commitment.",
  1007: 'Choose an expiry within the maximum lock lifetime.',
  1008: 'Use a valid viewing key.',
  1009: "Use a price on the market's tick.",
  1010: 'Prove again against a recent root, then resubmit.',
  1011: 'Prove again, then resubmit: the collateral proof did not verify.',
  1012: 'Choose an expiry beyond the settlement buffer.',
  1101: 'Log in again; the token expired or was revoked.',
  1102: 'Sign with the trading key that owns the order.',
  1103: 'Sign with the trading key that owns the order.',
  1150: 'Ask an operator to enable the account, or use an admin account.',
  1201: 'Use a new order id.',
  1202: 'Sign again with a fresh nonce.',
  1203: 'Use a new id for the replacement order.',
  1204: 'Back the order with another note, or wait until this one is free.',
  1205: 'Sign again: the venue restarted.',
  1206: 'Enable another admin account first.',
  1301: 'Check the id: the venue knows no such thing.',
  1401: ({ retryAfterSeconds }) => `Wait ${retryAfterSeconds ?? 1} s, then try again.`,
  1402: BUSY,
  4030: 'Open one connection per account.',
  4290: "Close one of the account's connections first.",
  5000: 'Nothing to fix on your side: the venue failed; try again later.',
  5001: BUSY,
  5002: BUSY,
} satisfies { [C in VenueErrorCode]: Fix<C> };

/** NOTE_NOT_FREE's fix, by the reason (for a tool that finds the reason itself, as the CLI does). */
export const NOTE_NOT_FREE_FIXES: Record<NoteNotFreeReason, string> = {
  unknown: 'Name a note of this wallet, of that asset.',
  spent: 'Name another note: this one is spent.',
  order: 'Cancel the order the note backs first.',
  locked: 'Wait until the match settles, then try again.',
  reserved: 'Wait until the order, split or withdrawal using the note is done, then try again.',
  pending: 'Wait until the note is final, then try again.',
};

/** The ledger's refusal, by its code (busy first: then nothing is wrong with the transaction). */
function ledgerRefusedFix(context: NightjarErrorContext[8003]): string {
  if (ledgerRefusalRetryable(context)) return 'Try again shortly: the ledger is busy.';
  switch (context.ledgerCode) {
    case 'NoteLocked':
      return 'Wait until the match settles, then try again.';
    case 'NoteSpent':
      return 'Sync the wallet: a note is already spent.';
    case 'UnknownRoot':
      return 'Try again: the tree moved on while proving.';
    default:
      return "Nothing was spent; check the venue's status.";
  }
}

const SDK_FIXES: { [C in SdkErrorCode]: Fix<C> } = {
  6001: 'Check that this is the venue you meant; nothing was sent.',
  6002: ATTESTATION_A,
  6003: ATTESTATION_A,
  6004: ATTESTATION_A,
  6005: ATTESTATION_A,
  6006: ATTESTATION_A,
  6007: ATTESTATION_B,
  6008: ATTESTATION_B,
  6009: ATTESTATION_C,
  6010: ATTESTATION_C,
  6011: ATTESTATION_C,
  6012: ATTESTATION_D,
  6013: ATTESTATION_D,
  6014: "Check the venue's URL and this machine's clock.",
  6015: VENUE_DOWN,
  6016: 'Verify the connection before sending on it.',
  7001: ({ mint }) => `Deposit more ${assetName(mint)}, or merge smaller notes.`,
  7002: 'Wait until the new note is final (about 13 s after it lands), then try again.',
  7003: ({ readyAt }) =>
    `Wait until the deposit's hold ends (${new Date(readyAt).toISOString()}), then try again.`,
  7004: ({ reason }) => NOTE_NOT_FREE_FIXES[reason],
  7005: ({ inputTotal, outputTotal }) =>
    outputTotal > inputTotal
      ? 'Ask less, or use a larger note.'
      : 'Give 1 to 8 positive amounts that add up exactly to the notes spent.',
  7006: 'Nothing to do: a merge needs at least 2 free notes.',
  7007: 'Wait until the new notes are final (they are in the wallet), then use them.',
  7008: 'Wait until the note is final (it is in the wallet); if it never is, check that the venue follows the ledger.',
  7009: 'Withdraw to a fresh address, or accept that the withdrawal links to your deposits.',
  7010: 'Place a new order instead.',
  7011: "Give the wallet's right password, or restore the file.",
  8001: 'Try again; if it persists, see the venue log.',
  8002: 'Check that the venue and its ledger are running, then try again.',
  8003: ledgerRefusedFix,
  8004: 'Wait: the wallet finds its notes once it lands.',
  8005: ({ rpcCode }) =>
    rpcCode === -32005
      ? 'Check that the venue and its ledger are running, then try again.'
      : "Fund the wallet's funding account from elsewhere: this ledger has no faucet.",
  8006: 'Ask for a known asset and a smaller amount.',
  9001: VENUE_DOWN,
  9002: "Use an SDK of the venue's release.",
  9003: 'Try again.',
  9004: 'Change the value as the message says.',
  9005: 'Take events faster, or keep a larger queue.',
  9006: 'Reconnect, then try again.',
  9007: 'Give the client what the call needs (a ledger, a wallet).',
  // A code this SDK does not know: the fix of its family.
  9900: (context) => nightjarErrorFix(venueFamilyOf(context.venueCode, context.status), context),
};

export const NIGHTJAR_ERROR_FIXES: FixTable = { ...VENUE_FIXES, ...SDK_FIXES };

/** The fix sentence of `code` for `context`. */
export function nightjarErrorFix<C extends NightjarErrorCode>(
  code: C,
  context: NightjarErrorContext[C],
): string {
  // The table is indexed by every code; TypeScript cannot pair one code with its row itself.
  const fix = NIGHTJAR_ERROR_FIXES[code] as Fix<C>;
  return typeof fix === 'function' ? fix(context) : fix;
}
