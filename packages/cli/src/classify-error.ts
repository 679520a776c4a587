/** Maps any error to an exit code and a message that names the fix. */
import {
  AccountSuspendedError,
  AuthenticationError,
  ForbiddenError,
  InsufficientNotesError,
  JoinSplitAmountsError,
  LedgerError,
  LedgerRefusedError,
  LedgerUnavailableError,
  NetworkError,
  NoteNotFreeError,
  NotesPendingError,
  NothingToMergeError,
  ParameterError,
  ProofError,
  SplitOutputsPendingError,
  TransactionPendingError,
  TransportError,
  type NoteNotFreeReason,
  VenueRequestError,
  WalletDecryptError,
} from '@nightjar/sdk';
import { DevOnlyKeysError } from '@nightjar/circuits';
import { INSTRUCTION_ERRORS, isInstructionErrorCode } from '@nightjar/ledger';
import { UsageError } from './args.js';
import { CliError, EXIT } from './exit-codes.js';

export interface Classified {
  exitCode: number;
  message: string;
  /** The venue's spec code when it refused, or the SDK's stable code of a note error (`NOTHING_TO_MERGE`). */
  code?: number | string;
  /** The ledger's code when it refused a transaction (`NoteLocked`, `-32007`). */
  ledgerCode?: string;
}

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
function ledgerFix(err: LedgerRefusedError): string {
  if (err.retryable) return 'the ledger is busy or down: try again';
  switch (err.ledgerCode) {
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

export function classifyError(err: unknown): Classified {
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof CliError)
    return { exitCode: err.exitCode, message: text, ...(err.code === undefined ? {} : { code: err.code }) };
  // Amounts over what the note holds are a wallet matter; the other amount rules are usage.
  if (err instanceof JoinSplitAmountsError)
    return err.outputTotal > err.inputTotal
      ? { exitCode: EXIT.wallet, code: err.code, message: `${text}: ask less, or split a larger note` }
      : { exitCode: EXIT.usage, code: err.code, message: `${text} (see --help)` };
  // Dev-ceremony keys outside dev mode: the fix is a flag (--circuit-keys), named in the message.
  if (err instanceof UsageError || err instanceof ParameterError || err instanceof DevOnlyKeysError)
    return { exitCode: EXIT.usage, message: text.includes('--help') ? text : `${text} (see --help)` };
  if (err instanceof AccountSuspendedError)
    return {
      exitCode: EXIT.auth,
      code: err.code,
      message: `account suspended (${err.code}): ask an operator to run \`nightjar account enable\``,
    };
  if (err instanceof AuthenticationError)
    return {
      exitCode: EXIT.auth,
      code: err.code,
      message: `token expired or credentials refused (${err.code}): run \`nightjar login\``,
    };
  if (err instanceof ForbiddenError && err.code === 1150)
    return {
      exitCode: EXIT.auth,
      code: err.code,
      message: `not allowed (${err.code}): this needs an admin login (\`nightjar login --admin\`)`,
    };
  if (err instanceof VenueRequestError)
    return {
      exitCode: EXIT.refused,
      code: err.code,
      message: `venue refused (${err.code}, HTTP ${err.status}): ${text}`,
    };
  if (err instanceof TransportError)
    return {
      exitCode: EXIT.unreachable,
      message: `transport verification failed (${err.code}): ${text}; check the pinned root and compose hash in ready.json`,
    };
  if (err instanceof NetworkError || isConnRefused(err))
    return { exitCode: EXIT.unreachable, message: `venue unreachable: ${text}; is \`npm start\` running?` };
  if (err instanceof LedgerUnavailableError)
    return { exitCode: EXIT.unreachable, code: err.code, message: `${text} (ready.json's ledger_url)` };
  if (err instanceof LedgerError)
    return { exitCode: EXIT.refused, code: err.code, ledgerCode: String(err.rpcCode), message: text };
  if (err instanceof WalletDecryptError)
    return {
      exitCode: EXIT.wallet,
      message: `cannot open the wallet: wrong NIGHTJAR_WALLET_PASSWORD or a damaged file`,
    };
  if (err instanceof LedgerRefusedError) {
    const known = isInstructionErrorCode(err.ledgerCode) ? `: ${INSTRUCTION_ERRORS[err.ledgerCode]}` : '';
    return {
      exitCode: EXIT.refused,
      code: err.code,
      ledgerCode: err.ledgerCode,
      message: `the ledger refused the ${err.instruction} (${err.ledgerCode}${known}): ${ledgerFix(err)}`,
    };
  }
  // Subclasses of InsufficientNotesError first: their fix differs.
  if (err instanceof NotesPendingError)
    return {
      exitCode: EXIT.timeout,
      message: `${err.summary}: a new note is final about 13 s after it lands; try again shortly`,
    };
  if (err instanceof NoteNotFreeError)
    return { exitCode: EXIT.wallet, code: err.code, message: `${text}: ${NOTE_NOT_FREE_FIX[err.reason]}` };
  if (err instanceof NothingToMergeError)
    return {
      exitCode: EXIT.wallet,
      code: err.code,
      message: `${text}: nothing to do (see \`nightjar wallet notes\`)`,
    };
  if (err instanceof SplitOutputsPendingError)
    return {
      exitCode: EXIT.timeout,
      code: err.code,
      message: `${text}: the new notes are in the wallet and back orders once final (\`nightjar wallet notes\`)`,
    };
  if (err instanceof TransactionPendingError)
    return {
      exitCode: EXIT.timeout,
      code: err.code,
      message: `${text}: \`nightjar wallet notes\` shows the notes once it lands`,
    };
  if (err instanceof InsufficientNotesError)
    return {
      exitCode: EXIT.wallet,
      message: `${err.summary}: deposit more with \`nightjar wallet deposit\`, or wait for locked notes to free up`,
    };
  if (err instanceof ProofError) return { exitCode: EXIT.wallet, message: `proof failed: ${text}` };
  return { exitCode: EXIT.refused, message: text };
}

function isConnRefused(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH';
}
