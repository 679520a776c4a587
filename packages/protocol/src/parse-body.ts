import { VenueError } from './errors.js';
import { FieldError, type Codec } from './schema.js';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; code: 1001; message: string };

/** Runs a codec over untrusted input, turning a field failure into the spec's 1001. */
export function parseBody<T>(codec: Codec<T>, raw: unknown): ParseResult<T> {
  try {
    return { ok: true, value: codec.parse(raw) };
  } catch (err) {
    if (err instanceof FieldError) return { ok: false, code: 1001, message: err.message };
    throw err;
  }
}

/**
 * Parses one query or path parameter (or stream frame field) with the same codec the bodies use,
 * so every hex, field-element and integer input of every route follows one rule: a malformed value
 * is 400 1001, never a lookup miss.
 */
export function parseParam<T>(codec: Codec<T>, raw: unknown, name: string): T {
  try {
    return codec.parse(raw, name);
  } catch (err) {
    if (err instanceof FieldError) throw new VenueError(1001, err.message);
    throw err;
  }
}
