/**
 * A small codec language: each codec both parses untrusted JSON (from {@link parseJsonExact}) and
 * describes itself as JSON Schema, so the validators and the OpenAPI document share one source.
 */
import { FIELD_MODULUS, parseAddress, U64_MAX } from './encoding.js';

export type JsonSchema = { [key: string]: unknown };

/** A field failed validation; `path` names it (`replacement.amount`). Messages never echo values. */
export class FieldError extends Error {
  override readonly name = 'FieldError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(path === '' ? reason : `${path}: ${reason}`);
  }
}

export interface Codec<T> {
  readonly schema: JsonSchema;
  /** Returns the normalised value or throws {@link FieldError}. */
  parse(value: unknown, path?: string): T;
}

export type Infer<C> = C extends Codec<infer T> ? T : never;

function codec<T>(schema: JsonSchema, parse: (value: unknown, path: string) => T): Codec<T> {
  return { schema, parse: (value, path = '') => parse(value, path) };
}

function fail(path: string, reason: string): never {
  throw new FieldError(path, reason);
}

/** Unsigned 64-bit JSON integer, returned as bigint. In-process callers may pass a safe-integer number. */
export function u64(description?: string): Codec<bigint> {
  return codec(
    {
      type: 'integer',
      minimum: 0,
      maximum: U64_MAX,
      format: 'uint64',
      ...(description ? { description } : {}),
    },
    (value, path) => {
      if (typeof value === 'bigint') {
        if (value < 0n || value > U64_MAX) fail(path, 'must be an unsigned 64-bit integer');
        return value;
      }
      if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
      return fail(path, 'must be an unsigned 64-bit integer');
    },
  );
}

/** A small unsigned integer (shard ids, counts), returned as number. */
export function smallUint(max: number, description?: string): Codec<number> {
  return codec(
    { type: 'integer', minimum: 0, maximum: max, ...(description ? { description } : {}) },
    (value, path) => {
      const n =
        typeof value === 'bigint'
          ? value
          : typeof value === 'number' && Number.isInteger(value)
            ? BigInt(value)
            : undefined;
      if (n === undefined || n < 0n || n > BigInt(max)) fail(path, `must be an integer from 0 to ${max}`);
      return Number(n);
    },
  );
}

/** Canonical decimal u64 in a string (`cancel_nonce`): no sign, no leading zeros. */
export function decimalU64String(description?: string): Codec<bigint> {
  return codec(
    { type: 'string', pattern: '^(0|[1-9][0-9]*)$', maxLength: 20, ...(description ? { description } : {}) },
    (value, path) => {
      if (typeof value !== 'string' || value.length > 20 || !/^(0|[1-9][0-9]*)$/.test(value)) {
        fail(path, 'must be a canonical decimal unsigned 64-bit integer string');
      }
      const n = BigInt(value);
      if (n > U64_MAX) fail(path, 'exceeds unsigned 64-bit range');
      return n;
    },
  );
}

/** An unsigned integer up to `max` as a canonical decimal string (query and path parameters). */
export function decimalUintString(max: number, description?: string): Codec<number> {
  const digits = String(max).length;
  return codec(
    {
      type: 'string',
      pattern: '^(0|[1-9][0-9]*)$',
      maxLength: digits,
      ...(description ? { description } : {}),
    },
    (value, path) => {
      if (typeof value !== 'string' || value.length > digits || !/^(0|[1-9][0-9]*)$/.test(value))
        fail(path, `must be an unsigned integer from 0 to ${max}`);
      const n = Number(value);
      if (n > max) fail(path, `must be an unsigned integer from 0 to ${max}`);
      return n;
    },
  );
}

/** Fixed-width hex; either case in, lowercase out. */
export function hexBytes(
  bytes: number,
  options: { nonZero?: boolean; description?: string } = {},
): Codec<string> {
  const pattern = `^[0-9a-fA-F]{${bytes * 2}}$`;
  const re = new RegExp(pattern);
  return codec(
    { type: 'string', pattern, ...(options.description ? { description: options.description } : {}) },
    (value, path) => {
      if (typeof value !== 'string' || value.length !== bytes * 2 || !re.test(value)) {
        fail(path, `must be ${bytes * 2} hex characters`);
      }
      const lower = value.toLowerCase();
      if (options.nonZero && /^0+$/.test(lower)) fail(path, 'must not be all zero');
      return lower;
    },
  );
}

/** A BN254 scalar field element: 32-byte big-endian hex below r. */
export function fieldElementHex(description?: string): Codec<string> {
  const hex = hexBytes(32);
  return codec(
    {
      ...hex.schema,
      description: `${description ? description + ' ' : ''}BN254 field element, big-endian, < r.`,
    },
    (value, path) => {
      const lower = hex.parse(value, path);
      if (BigInt('0x' + lower) >= FIELD_MODULUS) fail(path, 'must be a field element below r');
      return lower;
    },
  );
}

export function literal<const V extends readonly string[]>(
  values: V,
  description?: string,
): Codec<V[number]> {
  return codec(
    { type: 'string', enum: [...values], ...(description ? { description } : {}) },
    (value, path) => {
      if (typeof value !== 'string' || !values.includes(value))
        fail(path, `must be one of ${values.join(', ')}`);
      return value as V[number];
    },
  );
}

export function text(options: {
  minLength?: number;
  maxLength: number;
  pattern?: string;
  description?: string;
}): Codec<string> {
  const re = options.pattern === undefined ? undefined : new RegExp(options.pattern);
  const min = options.minLength ?? 0;
  return codec(
    {
      type: 'string',
      ...(min > 0 ? { minLength: min } : {}),
      maxLength: options.maxLength,
      ...(options.pattern ? { pattern: options.pattern } : {}),
      ...(options.description ? { description: options.description } : {}),
    },
    (value, path) => {
      if (typeof value !== 'string') fail(path, 'must be a string');
      if (value.length < min || value.length > options.maxLength) {
        fail(path, `must be ${min} to ${options.maxLength} characters`);
      }
      if (re && !re.test(value)) fail(path, 'has an invalid format');
      return value;
    },
  );
}

export function boolean(description?: string): Codec<boolean> {
  return codec({ type: 'boolean', ...(description ? { description } : {}) }, (value, path) => {
    if (typeof value !== 'boolean') fail(path, 'must be a boolean');
    return value;
  });
}

export function arrayOf<T>(
  item: Codec<T>,
  options: { minItems?: number; maxItems: number; description?: string },
): Codec<T[]> {
  return codec(
    {
      type: 'array',
      items: item.schema,
      ...(options.minItems ? { minItems: options.minItems } : {}),
      maxItems: options.maxItems,
      ...(options.description ? { description: options.description } : {}),
    },
    (value, path) => {
      if (!Array.isArray(value)) fail(path, 'must be an array');
      if (value.length < (options.minItems ?? 0) || value.length > options.maxItems) {
        fail(path, `must hold ${options.minItems ?? 0} to ${options.maxItems} items`);
      }
      return value.map((v, i) => item.parse(v, `${path}[${i}]`));
    },
  );
}

/** Schema-only codec for response fields whose shape is documented but not parsed here. */
export function described<T>(schema: JsonSchema): Codec<T> {
  return codec(schema, (value) => value as T);
}

export interface Prop<T, O extends boolean> {
  readonly codec: Codec<T>;
  readonly optional: O;
}
export function required<T>(c: Codec<T>): Prop<T, false> {
  return { codec: c, optional: false };
}
export function optional<T>(c: Codec<T>): Prop<T, true> {
  return { codec: c, optional: true };
}

type Props = Record<string, Prop<unknown, boolean>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type InferObject<P extends Props> = Simplify<
  { [K in keyof P as P[K]['optional'] extends false ? K : never]: Infer<P[K]['codec']> } & {
    [K in keyof P as P[K]['optional'] extends true ? K : never]?: Infer<P[K]['codec']>;
  }
>;

export interface ObjectCodec<P extends Props> extends Codec<InferObject<P>> {
  readonly props: P;
}

/** A closed object: unknown keys are refused, so a typo never silently drops a field. */
export function object<P extends Props>(props: P, description?: string): ObjectCodec<P> {
  const keys = Object.keys(props);
  const requiredKeys = keys.filter((k) => !props[k]!.optional);
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(keys.map((k) => [k, props[k]!.codec.schema])),
    ...(requiredKeys.length > 0 ? { required: requiredKeys } : {}),
    additionalProperties: false,
    ...(description ? { description } : {}),
  };
  const prefix = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);
  return {
    schema,
    props,
    parse(value, path = '') {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        fail(path, 'must be a JSON object');
      const input = value as Record<string, unknown>;
      for (const key of Object.keys(input)) {
        if (!Object.hasOwn(props, key)) fail(prefix(path, key), 'is not a known field');
      }
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        const prop = props[key]!;
        const present = Object.hasOwn(input, key) && input[key] !== undefined;
        if (!present) {
          if (!prop.optional) fail(prefix(path, key), 'is required');
          continue;
        }
        out[key] = prop.codec.parse(input[key], prefix(path, key));
      }
      return out as InferObject<P>;
    },
  };
}

/** Accepts the first alternative that parses. */
export function anyOf<T>(alternatives: readonly Codec<T>[], reason: string): Codec<T> {
  return codec({ anyOf: alternatives.map((a) => a.schema) }, (value, path) => {
    for (const alt of alternatives) {
      try {
        return alt.parse(value, path);
      } catch (err) {
        if (!(err instanceof FieldError)) throw err;
      }
    }
    return fail(path, reason);
  });
}

/** Any JSON value; checked later by a more specific codec (stream `params`). */
export function anyJson(description: string): Codec<unknown> {
  return codec({ description }, (value) => value);
}

/** A Base58 address of exactly 32 bytes (mints, markets, keys), kept as the string. */
export function base58Address(description?: string): Codec<string> {
  return codec(
    {
      type: 'string',
      minLength: 32,
      maxLength: 44,
      pattern: '^[1-9A-HJ-NP-Za-km-z]+$',
      description: description ?? 'Base58 of 32 bytes.',
    },
    (value, path) => {
      if (parseAddress(value) === undefined) fail(path, 'must be a Base58 address of 32 bytes');
      return value as string;
    },
  );
}
