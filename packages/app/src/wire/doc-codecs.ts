/**
 * Describing codecs for the local API's answers, in the protocol's codec language: each carries
 * the JSON Schema the OpenAPI document shows and the TypeScript type the server and web/ use. The
 * server builds its answers itself, so these never parse (protocol's `described`).
 */
import {
  described,
  object,
  optional,
  required,
  type Codec,
  type JsonSchema,
  type Prop,
} from '@nightjar/protocol';

const withDescription = (schema: JsonSchema, description?: string): JsonSchema =>
  description ? { ...schema, description } : schema;

export const str = <T extends string = string>(description?: string): Codec<T> =>
  described<T>(withDescription({ type: 'string' }, description));
/** A decimal string in human units ("1.5"). */
export const human = (what: string): Codec<string> => str(`${what}, a decimal string in human units ("1.5")`);
export const int = (description?: string): Codec<number> =>
  described<number>(withDescription({ type: 'integer' }, description));
export const num = (): Codec<number> => described<number>({ type: 'number' });
export const bool = (description?: string): Codec<boolean> =>
  described<boolean>(withDescription({ type: 'boolean' }, description));
export const constant = <const V extends string | boolean>(value: V): Codec<V> =>
  described<V>({ const: value });
export const oneOf = <const V extends readonly string[]>(values: V, description?: string): Codec<V[number]> =>
  described<V[number]>(withDescription({ type: 'string', enum: [...values] }, description));
export const list = <T>(item: Codec<T>): Codec<T[]> => described<T[]>({ type: 'array', items: item.schema });
export const numbersByName = (): Codec<Record<string, number>> =>
  described<Record<string, number>>({ type: 'object', additionalProperties: { type: 'integer' } });
export const anyObject = (): Codec<Record<string, unknown>> =>
  described<Record<string, unknown>>({ type: 'object' });
/** Required plain string fields, spread into an object's props: `...strings('asset', 'mint')`. */
export const strings = <const N extends string>(...names: N[]): { [K in N]: Prop<string, false> } =>
  Object.fromEntries(names.map((n) => [n, required(str())])) as { [K in N]: Prop<string, false> };
export { object, optional, required };

/** One of several shapes (the events socket's frames), told apart by their `type`. */
export function union<const C extends readonly Codec<unknown>[]>(
  description: string,
  alternatives: C,
): Codec<{ [K in keyof C]: C[K] extends Codec<infer T> ? T : never }[number]> {
  return described({ description, oneOf: alternatives.map((c) => c.schema) });
}
