/**
 * The local API's request bodies as codecs: each parses an untrusted body into its typed request
 * (a 400 BAD_REQUEST naming the field and its fix) and describes itself for the OpenAPI document.
 * Bodies are open (unknown keys are ignored, as bots send extras); a string field given as null
 * counts as absent.
 */
import type { Codec, InferObject, JsonSchema, Prop, Side } from '@nightjar/protocol';
import { parseSide, SIDE_WORDS } from '@nightjar/sdk';
import { badRequest } from '../errors.js';
import { ORDER_TYPES } from '../wire/views.js';

/** `alias`: the other word a request may use for the field (`market` for `symbol`). */
type Field<T, O extends boolean> = Prop<T, O> & { readonly fallback?: T; readonly alias?: string };
type Fields = Record<string, Field<unknown, boolean>>;
type FieldCodec<T> = Codec<T> & { readonly nullIsAbsent?: true };

const need = <T>(codec: FieldCodec<T>, fallback?: T): Field<T, false> => ({
  codec,
  optional: false,
  ...(fallback === undefined ? {} : { fallback }),
});
const may = <T>(codec: FieldCodec<T>): Field<T, true> => ({ codec, optional: true });
/** A field also read under its alias (the one vocabulary's other word for it). */
const aka = <T, O extends boolean>(alias: string, field: Field<T, O>): Field<T, O> => ({ ...field, alias });

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An open object: fields are checked in the order given; one a codec maps to undefined is left out. */
function body<F extends Fields>(fields: F): Codec<InferObject<F>> {
  const keys = Object.keys(fields);
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(keys.flatMap((k) => propertiesOf(k, fields[k]!))),
    // A field with an alias may come under either name, so neither is required by the schema.
    required: keys.filter((k) => !fields[k]!.optional && !fields[k]!.alias),
  };
  return {
    schema,
    parse(raw) {
      if (!isObject(raw)) throw badRequest('the body must be a JSON object');
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        const field = fields[key]! as Field<unknown, boolean> & { codec: FieldCodec<unknown> };
        const v = valueOf(raw, key, field.alias);
        const absent = v === undefined || (v === null && field.codec.nullIsAbsent);
        if (absent && field.fallback !== undefined) out[key] = field.fallback;
        else if (absent && !field.optional) throw badRequest(`\`${key}\` is required`, `give \`${key}\``);
        else if (!absent) {
          const value = field.codec.parse(v, key);
          if (value !== undefined) out[key] = value;
        }
      }
      return out as InferObject<F>;
    },
  };
}

/** A field's schema, and its alias's (the same, described as the alias). */
function propertiesOf(key: string, field: Field<unknown, boolean>): [string, JsonSchema][] {
  const schema = field.codec.schema;
  if (!field.alias) return [[key, schema]];
  const required = field.optional ? '' : ' Required: give it or its alias.';
  const noted = (text: string): JsonSchema => ({
    ...schema,
    description: `${String(schema.description ?? '')} ${text}`.trim(),
  });
  return [
    [key, noted(`Alias: \`${field.alias}\`.${required}`)],
    [field.alias, noted(`Alias of \`${key}\`.`)],
  ];
}

/** A field's value under its name or its alias; both given must agree. */
function valueOf(raw: Record<string, unknown>, key: string, alias: string | undefined): unknown {
  const v = raw[key];
  const a = alias === undefined ? undefined : raw[alias];
  if (v === undefined || v === null) return a ?? v;
  if (a !== undefined && a !== null && a !== v)
    throw badRequest(`\`${key}\` and \`${alias}\` name the same thing and differ`, `give only \`${key}\``);
  return v;
}

/** A codec that also checks the parsed whole. */
function refine<T>(codec: Codec<T>, check: (value: T) => void): Codec<T> {
  return { schema: codec.schema, parse: (raw, path) => tap(codec.parse(raw, path), check) };
}
const tap = <T>(value: T, check: (value: T) => void): T => (check(value), value);

const described = (schema: JsonSchema, description?: string): JsonSchema =>
  description ? { ...schema, description } : schema;

/** A non-empty string of at most 64 characters. */
function str<T extends string = string>(description?: string, check?: (v: string) => T): FieldCodec<T> {
  return {
    schema: described({ type: 'string' }, description),
    nullIsAbsent: true,
    parse(v, name = '') {
      if (typeof v !== 'string' || v.length === 0 || v.length > 64)
        throw badRequest(`\`${name}\` must be a non-empty string`, `e.g. "${name}": "1.5"`);
      return check ? check(v) : (v as T);
    },
  };
}

const DECIMAL = /^\d+(\.\d+)?$/;
/** A decimal string in human units ("1.5"). */
function humanField(name: string, what: string): FieldCodec<string> {
  const codec = str(`${what}, a decimal string in human units ("1.5")`);
  return {
    ...codec,
    parse(v) {
      const s = codec.parse(v, name);
      if (!DECIMAL.test(s))
        throw badRequest(
          `\`${name}\` must be a decimal string in human units, got ${JSON.stringify(s)}`,
          `e.g. "${name}": "1.5"`,
        );
      return s;
    },
  };
}
function choice<const V extends readonly string[]>(values: V, message: string): FieldCodec<V[number]> {
  const codec = str<V[number]>(undefined, (v) => {
    if (!values.includes(v)) throw badRequest(message);
    return v;
  });
  return { ...codec, schema: { type: 'string', enum: [...values] } };
}

function flag(description?: string): FieldCodec<boolean> {
  return {
    schema: described({ type: 'boolean' }, description),
    parse(v, name = '') {
      if (typeof v !== 'boolean') throw badRequest(`\`${name}\` must be true or false`);
      return v;
    },
  };
}

/** A side in the spec's words, `bid` or `ask`; the aliases `buy` and `sell` are read as them. */
const side: FieldCodec<Side> = {
  schema: {
    type: 'string',
    enum: Object.keys(SIDE_WORDS),
    description: '`bid` (buy) or `ask` (sell); `buy` and `sell` are accepted as aliases.',
  },
  nullIsAbsent: true,
  parse(v) {
    const parsed = typeof v === 'string' ? parseSide(v) : undefined;
    if (!parsed) throw badRequest('`side` must be bid or ask (or buy or sell)', 'e.g. "side": "bid"');
    return parsed;
  },
};

const positiveSeconds: FieldCodec<number> = {
  schema: { type: 'integer', description: 'Lifetime in seconds.' },
  parse(v) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
      throw badRequest('`expiry_seconds` must be a positive integer (seconds)');
    return v;
  },
};

/** A string kept when it is one, else left out (a transfer's `client_ref`). */
const looseString: FieldCodec<string | undefined> = {
  schema: { type: 'string' },
  parse: (v) => (typeof v === 'string' ? v : undefined),
};
const clientRef = () => may(looseString as FieldCodec<string>);

const NOTE_PREPARATIONS = ['auto', 'exact', 'off'] as const;

export const orderRequest = body({
  symbol: aka('market', need(str('The market, e.g. SOL-USDC.'))),
  side: need(side),
  type: need(choice(ORDER_TYPES, '`type` must be limit, ioc or fok'), 'limit'),
  amount: need(humanField('amount', 'Base amount')),
  price: need(humanField('price', 'Quote per base')),
  min_fill: may(humanField('min_fill', 'Minimum fill (base)')),
  expiry_seconds: aka('expires_in_s', may(positiveSeconds)),
  client_ref: may(str('Echoed on progress frames.')),
  prepare_note: may(
    choice(
      NOTE_PREPARATIONS,
      "`prepare_note` must be auto (default), exact (split the note to the order's size first) or off",
    ),
  ),
});

/** `POST /orders/cancel-all`: one market's live orders, or every market's (an absent body is `{}`). */
const cancelAllBody = body({
  symbol: aka('market', may(str('e.g. SOL-USDC; every market when absent'))),
});
export const cancelAllRequest: typeof cancelAllBody = {
  schema: cancelAllBody.schema,
  parse: (raw, path) => cancelAllBody.parse(raw ?? {}, path),
};

export const faucetRequest = body({
  faucet: may(flag()),
  asset: need(str('SOL, USDC, ETH or a mint.')),
  amount: need(humanField('amount', 'Amount')),
});

export const depositRequest = body({
  faucet: may(flag('Dev venues: airdrop the amount first.')),
  asset: need(str()),
  amount: need(humanField('amount', 'Amount')),
  client_ref: clientRef(),
});

export const withdrawRequest = body({
  // Checked as a transfer's is, though a withdrawal draws no airdrop.
  faucet: may(flag('Checked as on a deposit; a withdrawal ignores it.')),
  asset: need(str()),
  amount: need(
    humanField('amount', 'Any amount one note covers (paid in one transaction; the rest is a change note)'),
  ),
  recipient: need(str("The ledger address paid (Base58): the user's explicit choice, no default.")),
  confirm_funding_link: may(
    flag(
      "The user confirmed withdrawing to an address that funded this wallet's deposits (which links them on chain); without it that is refused, 409 LINKS_FUNDING_ADDRESS.",
    ),
  ),
  client_ref: clientRef(),
});

export const modifyRequest = refine(
  body({ price: may(humanField('price', 'New price')), amount: may(humanField('amount', 'New amount')) }),
  (m) => {
    if (m.price === undefined && m.amount === undefined)
      throw badRequest('give `price` or `amount` (or both)');
  },
);

const credential = (name: string, v: unknown): string => {
  if (typeof v !== 'string' || v.length === 0 || v.length > 256)
    throw badRequest(
      `\`${name}\` is required`,
      'give the admin account\'s api_key, api_secret and passphrase, or `{"dev": true}` on a dev venue',
    );
  return v;
};

/** Admin credentials, or `{ dev: true }` on a dev venue (the dev admin of ready.json). */
export const operatorLoginRequest: Codec<{
  api_key?: string;
  api_secret?: string;
  passphrase?: string;
  dev?: boolean;
}> = {
  schema: {
    type: 'object',
    properties: {
      api_key: { type: 'string' },
      api_secret: { type: 'string' },
      passphrase: { type: 'string' },
      dev: { type: 'boolean', description: 'Dev venues: the dev admin of ready.json.' },
    },
    required: [],
  },
  parse(raw) {
    if (typeof raw !== 'object' || raw === null) throw badRequest('the body must be a JSON object');
    const b = raw as Record<string, unknown>;
    if (b.dev === true) return { dev: true };
    return {
      api_key: credential('api_key', b.api_key),
      api_secret: credential('api_secret', b.api_secret),
      passphrase: credential('passphrase', b.passphrase),
    };
  },
};

/** A new account's label and admin flag; a missing or non-object body is no fields. */
export const createAccountRequest: Codec<{ label?: string; is_admin?: boolean }> = {
  schema: {
    type: 'object',
    properties: { label: { type: 'string' }, is_admin: { type: 'boolean' } },
    required: [],
  },
  parse(raw) {
    const b = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    if (b.label !== undefined && (typeof b.label !== 'string' || b.label.length > 128))
      throw badRequest('`label` must be a string of at most 128 characters');
    if (b.is_admin !== undefined && typeof b.is_admin !== 'boolean')
      throw badRequest('`is_admin` must be true or false');
    return {
      ...(typeof b.label === 'string' ? { label: b.label } : {}),
      ...(b.is_admin === undefined ? {} : { is_admin: b.is_admin }),
    };
  },
};
