import { parse, stringify } from 'lossless-json';

/**
 * A JSON number token that is not a plain integer (`1.0`, `1e3`, `-0`). Kept as its source text so
 * that validation can refuse it: integer fields accept integer tokens only, never a lossy `Number`.
 */
export class JsonNonInteger {
  constructor(readonly text: string) {}
}

export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

const UNSIGNED_RE = /^(0|[1-9][0-9]*)$/;
const NEGATIVE_RE = /^-[1-9][0-9]*$/;

function parseNumberToken(text: string): bigint | JsonNonInteger {
  return UNSIGNED_RE.test(text) || NEGATIVE_RE.test(text) ? BigInt(text) : new JsonNonInteger(text);
}

/** Default cap on nesting; the venue's bodies are at most three levels deep. */
export const MAX_JSON_DEPTH = 16;

function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Parses a request body exactly: every integer token becomes a `bigint` (so u64 values above 2^53
 * survive), other numbers become {@link JsonNonInteger}. Conflicting duplicate keys and nesting
 * deeper than `maxDepth` are syntax errors. Throws {@link JsonSyntaxError} only.
 */
export function parseJsonExact(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (exceedsDepth(text, maxDepth)) throw new JsonSyntaxError(`nesting deeper than ${maxDepth}`);
  try {
    return parse(text, null, parseNumberToken);
  } catch (err) {
    throw new JsonSyntaxError(err instanceof Error ? err.message : 'invalid JSON');
  }
}

/** Serializes with `bigint` written as a plain JSON integer. */
export function stringifyJson(value: unknown, indent?: number): string {
  const out = stringify(value, undefined, indent);
  if (out === undefined) throw new TypeError('value is not serializable to JSON');
  return out;
}
