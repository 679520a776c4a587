/** Exit codes of every `nightjar` command (docs/cli.md lists them). */
export const EXIT = {
  ok: 0,
  /** The venue or its ledger refused the request (its code is printed). */
  refused: 1,
  /** Wrong flag, missing argument, bad value. */
  usage: 2,
  /** No venue found, venue unreachable, or transport verification failed. */
  unreachable: 3,
  /** Credentials missing, refused, or the account is suspended. */
  auth: 4,
  /** Wallet problem: none, wrong password, not enough notes, proof failed. */
  wallet: 5,
  /** A wait (`watch --timeout`, a note not final in time) ran out. */
  timeout: 6,
} as const;

/** An error that already knows its exit code and the fix to print (and the SDK's stable `code`, if any). */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number,
    readonly code?: string,
  ) {
    super(message);
  }
}
