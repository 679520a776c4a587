/**
 * What the CLI does with each SDK error code, in one exhaustive table (as the engine's
 * `settlement/ledger-codes.ts`): the exit code and the fix it prints. A code added to the SDK's
 * `NightjarErrorCode` does not compile here until it has its row.
 */
import {
  everyVenueCode,
  nightjarErrorName,
  venueCodeOf,
  type VenueAnswerError,
  venueFamilyOf,
  type NightjarError,
  type NightjarErrorCode,
  type NoteNotFreeReason,
  type VenueErrorCode,
  NOTES_SUMMARY,
} from '@nightjar/sdk';
import { INSTRUCTION_ERRORS, isInstructionErrorCode } from '@nightjar/ledger';
import { EXIT } from './exit-codes.js';

type Exit = (typeof EXIT)[keyof typeof EXIT];

/** How the CLI reports one code. */
export interface CliRow<C extends NightjarErrorCode> {
  exit: Exit | ((err: NightjarError<C>) => Exit);
  /** What to do about it; printed after the message (`message: fix`) unless `message` words both. */
  fix?: string | ((err: NightjarError<C>) => string);
  /** The printed line, when it is not `message: fix`. */
  message?: (err: NightjarError<C>, fix: string | undefined) => string;
  /** Whether `--json` shows the code (the venue's number, or the SDK's name). */
  showCode?: true;
  /** The ledger's code to show (`NoteLocked`, `-32007`). */
  ledgerCode?: (err: NightjarError<C>) => string;
}

export type CliTable = { [C in NightjarErrorCode]: CliRow<C> };

/** What to do about a note that cannot be used now, by the SDK's reason. */
export const NOTE_NOT_FREE_FIX: Record<NoteNotFreeReason, string> = {
  unknown: 'see `nightjar wallet notes`',
  spent: 'see `nightjar wallet notes`',
  order: 'see `nightjar order list`, then `nightjar order cancel --id ORDER_ID`',
  locked: 'try again once the match settles (`nightjar watch`)',
  reserved: 'try again once that is done',
  pending: 'try again once it is final (`nightjar wallet notes`)',
};

/** What to do about a ledger refusal, for the codes a split, merge or withdrawal can meet. */
function ledgerFix(err: NightjarError<8003>): string {
  if (err.retryable) return 'the ledger is busy or down: try again';
  switch (err.context.ledgerCode) {
    case 'NoteLocked':
      return 'a note is locked while a match settles: try again once it settles (`nightjar watch`)';
    case 'NoteSpent':
      return 'a note is already spent: `nightjar wallet notes` brings the wallet up to date';
    case 'UnknownRoot':
      return 'the tree moved on while proving: try again';
    default:
      return 'nothing was spent; see `nightjar status`';
  }
}

/** A venue answer, known or not. */
type VenueAnswer = VenueAnswerError;

const REFUSED = {
  exit: EXIT.refused,
  showCode: true,
  message: (err: VenueAnswer) =>
    `venue refused (${venueCodeOf(err)}, HTTP ${err.context.status}): ${err.message}`,
} as const;
const LOGIN = {
  exit: EXIT.auth,
  showCode: true,
  fix: 'run `nightjar login`',
  message: (err: VenueAnswer, fix: string | undefined) =>
    `token expired or credentials refused (${venueCodeOf(err)}): ${fix}`,
} as const;
const SUSPENDED = {
  exit: EXIT.auth,
  showCode: true,
  fix: 'ask an operator to run `nightjar account enable`',
  message: (err: VenueAnswer, fix: string | undefined) => `account suspended (${venueCodeOf(err)}): ${fix}`,
} as const;

const VENUE_ROWS: Record<VenueErrorCode, CliRow<VenueErrorCode>> = {
  ...everyVenueCode(REFUSED),
  1101: LOGIN,
  1150: SUSPENDED,
};

/** An unknown venue code is reported as its family (by range, else HTTP status). */
const familyRow = (err: NightjarError<9900>) =>
  VENUE_ROWS[venueFamilyOf(err.context.venueCode, err.context.status)];

const TRANSPORT = {
  exit: EXIT.unreachable,
  message: (err: NightjarError) =>
    `transport verification failed (${nightjarErrorName(err.code)}): ${err.message}; check the pinned root and compose hash in ready.json`,
} as const;
/** A value the caller passed: usage, pointing at `--help` unless the message does. */
const USAGE = {
  exit: EXIT.usage,
  message: (err: NightjarError) =>
    err.message.includes('--help') ? err.message : `${err.message} (see --help)`,
} as const;
/** No row of its own: the message as it is. */
const AS_IS = { exit: EXIT.refused } as const;
const NOT_ENOUGH = {
  exit: EXIT.wallet,
  fix: 'deposit more with `nightjar wallet deposit`, or wait for locked notes to free up',
  message: (err: NightjarError<7001 | 7003>, fix: string | undefined) =>
    `${err.code === 7001 ? NOTES_SUMMARY[7001](err.context as NightjarError<7001>['context']) : NOTES_SUMMARY[7003](err.context as NightjarError<7003>['context'])}: ${fix}`,
} as const;

export const CLI_ERRORS: CliTable = {
  ...VENUE_ROWS,
  6001: TRANSPORT,
  6002: TRANSPORT,
  6003: TRANSPORT,
  6004: TRANSPORT,
  6005: TRANSPORT,
  6006: TRANSPORT,
  6007: TRANSPORT,
  6008: TRANSPORT,
  6009: TRANSPORT,
  6010: TRANSPORT,
  6011: TRANSPORT,
  6012: TRANSPORT,
  6013: TRANSPORT,
  6014: TRANSPORT,
  6015: TRANSPORT,
  6016: TRANSPORT,
  7001: NOT_ENOUGH,
  7002: {
    exit: EXIT.timeout,
    fix: 'a new note is final about 13 s after it lands; try again shortly',
    message: (err, fix) => `${NOTES_SUMMARY[7002](err.context)}: ${fix}`,
  },
  7003: NOT_ENOUGH,
  7004: { exit: EXIT.wallet, showCode: true, fix: (err) => NOTE_NOT_FREE_FIX[err.context.reason] },
  // Amounts over what the note holds are a wallet matter; the other amount rules are usage.
  7005: {
    exit: (err) => (err.context.outputTotal > err.context.inputTotal ? EXIT.wallet : EXIT.usage),
    showCode: true,
    message: (err) =>
      err.context.outputTotal > err.context.inputTotal
        ? `${err.message}: ask less, or split a larger note`
        : `${err.message} (see --help)`,
  },
  7006: { exit: EXIT.wallet, showCode: true, fix: 'nothing to do (see `nightjar wallet notes`)' },
  7007: {
    exit: EXIT.timeout,
    showCode: true,
    fix: 'the new notes are in the wallet and back orders once final (`nightjar wallet notes`)',
  },
  7008: AS_IS,
  7009: USAGE,
  7010: AS_IS,
  7011: {
    exit: EXIT.wallet,
    fix: 'wrong NIGHTJAR_WALLET_PASSWORD or a damaged file',
    message: (_err, fix) => `cannot open the wallet: ${fix}`,
  },
  8001: { exit: EXIT.refused, showCode: true, ledgerCode: (err) => String(err.context.rpcCode) },
  8002: {
    exit: EXIT.unreachable,
    showCode: true,
    fix: "ready.json's ledger_url",
    message: (err, fix) => `${err.message} (${fix})`,
  },
  8003: {
    exit: EXIT.refused,
    showCode: true,
    ledgerCode: (err) => err.context.ledgerCode,
    fix: ledgerFix,
    message: (err, fix) => {
      const { instruction, ledgerCode } = err.context;
      const known = isInstructionErrorCode(ledgerCode) ? `: ${INSTRUCTION_ERRORS[ledgerCode]}` : '';
      return `the ledger refused the ${instruction} (${ledgerCode}${known}): ${fix}`;
    },
  },
  8004: { exit: EXIT.timeout, showCode: true, fix: '`nightjar wallet notes` shows the notes once it lands' },
  8005: AS_IS,
  8006: AS_IS,
  9001: {
    exit: EXIT.unreachable,
    fix: 'is `npm start` running?',
    message: (err, fix) => `venue unreachable: ${err.message}; ${fix}`,
  },
  9002: AS_IS,
  9003: { exit: EXIT.wallet, message: (err) => `proof failed: ${err.message}` },
  9004: USAGE,
  9005: AS_IS,
  9006: AS_IS,
  9007: AS_IS,
  9900: {
    exit: (err) => {
      const { exit } = familyRow(err);
      return typeof exit === 'function' ? exit(err as never) : exit;
    },
    showCode: true,
    message: (err) => {
      const row = familyRow(err);
      const fix = typeof row.fix === 'function' ? undefined : row.fix;
      return row.message!(err as never, fix);
    },
  },
};
