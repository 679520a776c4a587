/**
 * The fix the CLI prints for an SDK error: the SDK's sentence (`err.fix`, the same the app
 * answers), then, where the CLI has a command that does it, that command in parentheses from
 * this table (`nightjar login` for 1101...). Only the parenthesised hint is the CLI's own.
 */
import {
  venueFamilyOf,
  type NightjarError,
  type NightjarErrorCode,
  type NoteNotFreeReason,
} from '@nightjar/sdk';

type Command<C extends NightjarErrorCode> = string | ((err: NightjarError<C>) => string | undefined);
export type CliCommands = { [C in NightjarErrorCode]?: Command<C> };

const NOTES = '`nightjar wallet notes`';
const READY = "ready.json's platform_root and compose_hash";
const START = '`npm start`';
/** Usage: `--help`, unless the message already points there. */
const HELP = (err: NightjarError) => (err.message.includes('--help') ? undefined : 'see --help');

/** The command for a note that cannot be used now, by the SDK's reason. */
export const NOTE_NOT_FREE_COMMANDS: Record<NoteNotFreeReason, string | undefined> = {
  unknown: NOTES,
  spent: NOTES,
  order: '`nightjar order list`, then `nightjar order cancel --id ORDER_ID`',
  locked: '`nightjar watch`',
  reserved: undefined,
  pending: NOTES,
};

export const CLI_FIX_COMMANDS: CliCommands = {
  1101: '`nightjar login`',
  1150: 'an operator runs `nightjar account enable`',
  6002: READY,
  6003: READY,
  6004: READY,
  6005: READY,
  6006: READY,
  6009: READY,
  6010: READY,
  6011: READY,
  6015: START,
  7001: '`nightjar wallet deposit`, `nightjar wallet merge`',
  7002: NOTES,
  7003: NOTES,
  7004: (err) => NOTE_NOT_FREE_COMMANDS[err.context.reason],
  7005: (err) => (err.context.outputTotal > err.context.inputTotal ? NOTES : 'see --help'),
  7006: NOTES,
  7007: NOTES,
  7008: NOTES,
  7009: HELP,
  7011: 'NIGHTJAR_WALLET_PASSWORD',
  8002: `${START}; ready.json's ledger_url`,
  8003: (err) => {
    if (err.retryable) return undefined;
    if (err.context.ledgerCode === 'NoteLocked') return '`nightjar watch`';
    return err.context.ledgerCode === 'NoteSpent' ? NOTES : '`nightjar status`';
  },
  8004: NOTES,
  9001: START,
  9004: HELP,
  // A venue code the SDK does not know: its family's command.
  9900: (err) => commandOf(venueFamilyOf(err.context.venueCode, err.context.status), err),
};

function commandOf(code: NightjarErrorCode, err: NightjarError): string | undefined {
  // The table is indexed by every code; TypeScript cannot pair one code with its row itself.
  const command = CLI_FIX_COMMANDS[code] as Command<NightjarErrorCode> | undefined;
  return typeof command === 'function' ? command(err) : command;
}

/** A fix sentence of the SDK's with the CLI's command, if any, in parentheses. */
export const withCommand = (fix: string, command: string | undefined): string =>
  command ? `${fix} (${command})` : fix;

/** The fix as the CLI prints it: the SDK's sentence, then the CLI's command in parentheses. */
export const cliFix = (err: NightjarError): string => withCommand(err.fix, commandOf(err.code, err));
