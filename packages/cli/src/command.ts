/** The shape of a command and the context every command gets. */
import type { ParseArgsConfig } from 'node:util';
import type { Output } from './output.js';
import type { Paths } from './config.js';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

export interface Context {
  out: Output;
  paths: Paths;
  values: Values;
  positionals: string[];
  /** The raw arguments after the command's words (services pass them on). */
  argv: string[];
}

export interface Command {
  /** Words after `nightjar`, e.g. `wallet deposit`. */
  name: string;
  summary: string;
  /** Usage text shown by `--help` (flags of this command; the global ones are added). */
  usage: string;
  options: Options;
  /** Keeps running after `run` resolves (a service). */
  longRunning?: boolean;
  /** Not listed in the overview (internal). */
  hidden?: boolean;
  /** Resolves with the exit code. */
  run(ctx: Context): Promise<number>;
}

export const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'data-dir': { type: 'string' },
  home: { type: 'string' },
} as const satisfies Options;

export const GLOBAL_USAGE = `Global flags:
  --json          machine-readable output on stdout (progress and notes are suppressed)
  --help, -h      this help
  --data-dir D    where ready.json is (default $NIGHTJAR_DATA_DIR or ./.nightjar)
  --home H        CLI config: credentials, wallet, nonces (default $NIGHTJAR_HOME or <data-dir>/cli)`;

/** A string flag's value, or undefined. */
export function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
