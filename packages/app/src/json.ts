/** JSON for the local API: the venue's exact numbers (bigints, non-integers) as plain JSON values. */
import { JsonNonInteger } from '@nightjar/protocol';

/** A JSON.stringify replacer: a bigint as a number when it is safe, else a decimal string. */
export function jsonReplacer(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint')
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(v)
      : v.toString();
  if (v instanceof JsonNonInteger) return Number(v.text);
  return v;
}

export const toJson = (value: unknown): string => JSON.stringify(value, jsonReplacer);

/** A deep copy with bigints and non-integers made plain (see `jsonReplacer`). */
export function plain<T>(value: unknown): T {
  return JSON.parse(toJson(value)) as T;
}
