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
