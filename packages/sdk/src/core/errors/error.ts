/**
 * The one error class the SDK throws: a `code` of `NightjarErrorCode`, its typed `context`, and
 * whether retrying can help; `fix` says what to do. Branch with `isNightjarError(e, code)`, never on `message`.
 * Messages never carry secrets (no token, key, note opening or seed).
 */
import { NIGHTJAR_ERROR_NAMES, type NightjarErrorCode, type NightjarErrorName } from './codes.js';
import type { NightjarErrorContext } from './context.js';
import { nightjarErrorFix } from './fixes.js';
import { NIGHTJAR_ERROR_MESSAGES } from './messages.js';
import { NIGHTJAR_ERROR_RETRYABLE } from './retryable.js';

export class NightjarError<C extends NightjarErrorCode = NightjarErrorCode> extends Error {
  override name = 'NightjarError';
  /** Whether the same request may succeed later. */
  readonly retryable: boolean;

  constructor(
    readonly code: C,
    readonly context: NightjarErrorContext[C],
    options?: ErrorOptions,
  ) {
    // The tables are indexed by every code; TypeScript cannot pair one code with its row itself.
    const message = NIGHTJAR_ERROR_MESSAGES[code] as (context: NightjarErrorContext[C]) => string;
    super(message(context), options);
    const retryable = NIGHTJAR_ERROR_RETRYABLE[code] as
      boolean | ((context: NightjarErrorContext[C]) => boolean);
    this.retryable = typeof retryable === 'function' ? retryable(context) : retryable;
  }

  /** What to do about it: one sentence, the same the CLI and the app show (`NIGHTJAR_ERROR_FIXES`). */
  get fix(): string {
    return nightjarErrorFix(this.code, this.context);
  }

  /** The code's stable name (`'NOTE_NOT_FREE'`, `'RATE_LIMITED'`...). */
  get codeName(): NightjarErrorName {
    return NIGHTJAR_ERROR_NAMES[this.code];
  }
}

/** The error of one code, or the union of each code's error (so `switch (e.code)` narrows `context`). */
export type NightjarErrorOf<C extends NightjarErrorCode> = C extends NightjarErrorCode
  ? NightjarError<C>
  : never;

/**
 * Whether `e` is an error the SDK threw; with `code` (one, or a group such as
 * `INSUFFICIENT_NOTES_CODES`), whether it carries it, narrowed to its context (in the manner of
 * `@solana/kit`'s `isSolanaError`).
 *
 * @example
 * if (isNightjarError(err, 1401)) await sleep(err.context.retryAfterSeconds ?? 1);
 */
export function isNightjarError(e: unknown): e is NightjarError;
export function isNightjarError<C extends NightjarErrorCode>(
  e: unknown,
  code: C | readonly C[],
): e is NightjarErrorOf<C>;
export function isNightjarError(
  e: unknown,
  code?: NightjarErrorCode | readonly NightjarErrorCode[],
): boolean {
  if (!(e instanceof NightjarError)) return false;
  if (code === undefined) return true;
  return typeof code === 'number' ? e.code === code : code.includes(e.code);
}

/** The code's stable name. */
export function nightjarErrorName(code: NightjarErrorCode): NightjarErrorName {
  return NIGHTJAR_ERROR_NAMES[code];
}
