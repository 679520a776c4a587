/** Minimal option parsing shared by the commands: `--name value` and boolean `--flag`. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What `parseOptions` returns: parseArgs' values for these options (named, for the declaration build). */
export type ParsedOptions<T extends NonNullable<ParseArgsConfig['options']>> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; allowPositionals: false; strict: true }>
>['values'];

export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
): ParsedOptions<T> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values;
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

export function portOption(value: string | undefined, fallback: number, flag = '--port'): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`${flag} must be 0..65535, got ${value}`);
  return port;
}

export function positiveIntOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} must be a positive integer, got ${value}`);
  return n;
}

/**
 * A string flag given under its name or its alias (`--symbol` or `--market`); both at once must
 * agree.
 */
export function aliasedOption(
  values: Record<string, string | boolean | undefined>,
  name: string,
  alias: string,
): string | undefined {
  const a = values[name];
  const b = values[alias];
  const given = typeof a === 'string' ? a : undefined;
  const aliased = typeof b === 'string' ? b : undefined;
  if (given !== undefined && aliased !== undefined && given !== aliased)
    throw new UsageError(`--${name} and --${alias} name the same thing: give one`);
  return given ?? aliased;
}
