/**
 * What the CLI does with each SDK error code, in one exhaustive table (as the engine's
 * `settlement/ledger-codes.ts`): the exit code and how the line names what went wrong. The fix
 * that follows is the SDK's sentence with the CLI's command (`fix-commands.ts`). A code added to
 * the SDK's `NightjarErrorCode` does not compile here until it has its row.
 */
import {
  everyVenueCode,
  nightjarErrorName,
  venueCodeOf,
  type VenueAnswerError,
  venueFamilyOf,
  type NightjarError,
  type NightjarErrorCode,
  type VenueErrorCode,
} from '@nightjar/sdk';
import { INSTRUCTION_ERRORS, isInstructionErrorCode } from '@nightjar/ledger';
import { EXIT } from './exit-codes.js';

type Exit = (typeof EXIT)[keyof typeof EXIT];

/** How the CLI reports one code; the line is `what: fix` (`what` the SDK's message unless `message`). */
export interface CliRow<C extends NightjarErrorCode> {
  exit: Exit | ((err: NightjarError<C>) => Exit);
  /** What went wrong, in the CLI's words, when it is not the SDK's message. */
  message?: (err: NightjarError<C>) => string;
  /** Whether `--json` shows the code (the venue's number, or the SDK's name). */
  showCode?: true;
  /** The ledger's code to show (`NoteLocked`, `-32007`). */
  ledgerCode?: (err: NightjarError<C>) => string;
}

export type CliTable = { [C in NightjarErrorCode]: CliRow<C> };

const REFUSED = {
  exit: EXIT.refused,
  showCode: true,
  message: (err: VenueAnswerError) =>
    `venue refused (${venueCodeOf(err)}, HTTP ${err.context.status}): ${err.message}`,
} as const;
const LOGIN = {
  exit: EXIT.auth,
  showCode: true,
  message: (err: VenueAnswerError) => `token expired or credentials refused (${venueCodeOf(err)})`,
} as const;
const SUSPENDED = {
  exit: EXIT.auth,
  showCode: true,
  message: (err: VenueAnswerError) => `account suspended (${venueCodeOf(err)})`,
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
    `transport verification failed (${nightjarErrorName(err.code)}): ${err.message}`,
} as const;
/** A value the caller passed: usage (the command names `--help`). */
const USAGE = { exit: EXIT.usage } as const;
/** No row of its own: the message as it is. */
const AS_IS = { exit: EXIT.refused } as const;
const NOT_ENOUGH = { exit: EXIT.wallet } as const;

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
  7002: { exit: EXIT.timeout },
  7003: NOT_ENOUGH,
  7004: { exit: EXIT.wallet, showCode: true },
  // Amounts over what the note holds are a wallet matter; the other amount rules are usage.
  7005: {
    exit: (err) => (err.context.outputTotal > err.context.inputTotal ? EXIT.wallet : EXIT.usage),
    showCode: true,
  },
  7006: { exit: EXIT.wallet, showCode: true },
  7007: { exit: EXIT.timeout, showCode: true },
  7008: AS_IS,
  7009: USAGE,
  7010: AS_IS,
  7011: { exit: EXIT.wallet, message: () => 'cannot open the wallet' },
  8001: { exit: EXIT.refused, showCode: true, ledgerCode: (err) => String(err.context.rpcCode) },
  8002: { exit: EXIT.unreachable, showCode: true },
  8003: {
    exit: EXIT.refused,
    showCode: true,
    ledgerCode: (err) => err.context.ledgerCode,
    message: (err) => {
      const { instruction, ledgerCode } = err.context;
      const known = isInstructionErrorCode(ledgerCode) ? `: ${INSTRUCTION_ERRORS[ledgerCode]}` : '';
      return `the ledger refused the ${instruction} (${ledgerCode}${known})`;
    },
  },
  8004: { exit: EXIT.timeout, showCode: true },
  8005: AS_IS,
  8006: AS_IS,
  9001: { exit: EXIT.unreachable, message: (err) => `venue unreachable: ${err.message}` },
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
    message: (err) => familyRow(err).message?.(err as never) ?? err.message,
  },
};
