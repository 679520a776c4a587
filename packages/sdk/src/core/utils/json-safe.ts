/**
 * A JSON-safe form of the SDK's values: `JSON.stringify` throws on a bigint and writes a
 * Uint8Array as an object of indexes, so a bot that logs or ships a return value converts it first.
 */
import { bytesToHex, hexToBytes } from '@nightjar/protocol';

/** What `toJsonSafe` makes of a `T`: bigints become strings, byte arrays hex strings, Maps objects. */
export type JsonSafe<T> = T extends bigint
  ? string
  : T extends Uint8Array
    ? string
    : T extends Map<infer K, infer V>
      ? Record<K & string, JsonSafe<V>>
      : T extends Set<infer V>
        ? JsonSafe<V>[]
        : T extends readonly (infer V)[]
          ? JsonSafe<V>[]
          : T extends object
            ? { [P in keyof T]: JsonSafe<T[P]> }
            : T;

/**
 * A copy of `value` that `JSON.stringify` writes without loss: bigints as decimal strings
 * (`1500000000n` → `"1500000000"`), Uint8Arrays as lowercase hex, Maps as objects, Sets as
 * arrays, errors as objects of their fields with `name` and `message`; arrays and plain objects
 * recursively; everything else as it is.
 *
 * @example
 * const open = await getOpenOrders(client);
 * console.log(JSON.stringify(toJsonSafe(open)));
 * // [{"order_id":"…","amount":"1000000000","price_limit":"150000000",…}]
 */
export function toJsonSafe<T>(value: T): JsonSafe<T> {
  return convert(value) as JsonSafe<T>;
}

function convert(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return bytesToHex(value);
  // An error's own fields (a NightjarError's code and context) with its name and message, which
  // JSON.stringify would drop; its context may hold bigints too.
  if (value instanceof Error)
    return convert({
      ...Object.fromEntries(Object.entries(value)),
      name: value.name,
      message: value.message,
    });
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), convert(v)]));
  if (value instanceof Set) return [...value].map(convert);
  if (Array.isArray(value)) return value.map(convert);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The field names `fromJsonSafe` turns back: a string alone cannot say it was a bigint. */
export interface JsonSafeFields {
  /** Fields holding a decimal string that was a bigint (e.g. `['amount', 'price_limit']`). */
  bigints?: readonly string[];
  /** Fields holding hex that was a Uint8Array. */
  bytes?: readonly string[];
}

/**
 * The inverse of `toJsonSafe` for the named fields, at any depth: their strings become bigints
 * (or Uint8Arrays); every other value is copied as it is. Throws a SyntaxError/TypeError on a
 * named field that is not a decimal integer (or not hex).
 *
 * @example
 * const orders = fromJsonSafe(JSON.parse(text), { bigints: ['amount', 'filled_quantity', 'price_limit'] });
 */
export function fromJsonSafe(value: unknown, fields: JsonSafeFields): unknown {
  const bigints = new Set(fields.bigints ?? []);
  const bytes = new Set(fields.bytes ?? []);
  const revive = (v: unknown, key?: string): unknown => {
    if (key !== undefined && typeof v === 'string') {
      if (bigints.has(key)) return decimalBigInt(v);
      if (bytes.has(key)) return hexToBytes(v);
    }
    if (Array.isArray(v)) return v.map((item) => revive(item, key));
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x, k)]));
    return v;
  };
  return revive(value);
}

function decimalBigInt(s: string): bigint {
  if (!/^-?\d+$/.test(s)) throw new SyntaxError(`not a decimal integer: ${JSON.stringify(s)}`);
  return BigInt(s);
}
