/**
 * Maps any error to an exit code and a message that names the fix: the SDK's errors by their code
 * (`error-table.ts`; the line is `what went wrong: the SDK's fix (the CLI's command)`), the CLI's
 * own (`CliError`, `UsageError`) and the circuits' dev-key refusal beside it.
 */
import {
  isNightjarError,
  NightjarError,
  NIGHTJAR_ERROR__NETWORK,
  nightjarErrorName,
  venueCodeOf,
  type NightjarErrorCode,
  VENUE_ANSWER_CODES,
} from '@nightjar/sdk';
import { DevOnlyKeysError } from '@nightjar/circuits';
import { UsageError } from './args.js';
import { CLI_ERRORS, type CliRow } from './error-table.js';
import { CliError, EXIT } from './exit-codes.js';
import { cliFix } from './fix-commands.js';

export interface Classified {
  exitCode: number;
  message: string;
  /** The venue's spec code when it refused, or the SDK's stable name of a note error (`NOTHING_TO_MERGE`). */
  code?: number | string;
  /** The ledger's code when it refused a transaction (`NoteLocked`, `-32007`). */
  ledgerCode?: string;
}

export function classifyError(err: unknown): Classified {
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof CliError)
    return { exitCode: err.exitCode, message: text, ...(err.code === undefined ? {} : { code: err.code }) };
  // Dev-ceremony keys outside dev mode: the fix is a flag (--circuit-keys), named in the message.
  if (err instanceof UsageError || err instanceof DevOnlyKeysError)
    return { exitCode: EXIT.usage, message: text.includes('--help') ? text : `${text} (see --help)` };
  if (isNightjarError(err)) return classifySdkError(err);
  if (isConnRefused(err))
    return classifySdkError(new NightjarError(NIGHTJAR_ERROR__NETWORK, { detail: text }));
  return { exitCode: EXIT.refused, message: text };
}

function classifySdkError<C extends NightjarErrorCode>(err: NightjarError<C>): Classified {
  const row = CLI_ERRORS[err.code] as CliRow<C>;
  const message = `${row.message ? row.message(err) : err.message}: ${cliFix(err)}`;
  const ledgerCode = row.ledgerCode?.(err);
  return {
    exitCode: typeof row.exit === 'function' ? row.exit(err) : row.exit,
    message,
    ...(row.showCode ? { code: shownCode(err) } : {}),
    ...(ledgerCode === undefined ? {} : { ledgerCode }),
  };
}

/** The venue's number for a venue answer, else the SDK's stable name. */
function shownCode(err: NightjarError): number | string {
  return isNightjarError(err, VENUE_ANSWER_CODES) ? venueCodeOf(err) : nightjarErrorName(err.code);
}

function isConnRefused(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH';
}
