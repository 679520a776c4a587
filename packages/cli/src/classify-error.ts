/** Maps any error to an exit code and a message that names the fix. */
import {
  AccountSuspendedError,
  AuthenticationError,
  ForbiddenError,
  InsufficientNotesError,
  NetworkError,
  ParameterError,
  ProofError,
  TransportError,
  VenueRequestError,
  WalletDecryptError,
} from '@nightjar/sdk';
import { DevOnlyKeysError } from '@nightjar/circuits';
import { UsageError } from './args.js';
import { CliError, EXIT } from './exit-codes.js';

export interface Classified {
  exitCode: number;
  message: string;
  /** The venue's spec code, when it refused. */
  code?: number;
}

export function classifyError(err: unknown): Classified {
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof CliError) return { exitCode: err.exitCode, message: text };
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
  if (err instanceof WalletDecryptError)
    return {
      exitCode: EXIT.wallet,
      message: `cannot open the wallet: wrong NIGHTJAR_WALLET_PASSWORD or a damaged file`,
    };
  if (err instanceof InsufficientNotesError)
    return {
      exitCode: EXIT.wallet,
      message: `${text}; deposit more with \`nightjar wallet deposit\`, or wait for locked notes to free up`,
    };
  if (err instanceof ProofError) return { exitCode: EXIT.wallet, message: `proof failed: ${text}` };
  return { exitCode: EXIT.refused, message: text };
}

function isConnRefused(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH';
}
