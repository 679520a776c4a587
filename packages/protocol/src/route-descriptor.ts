/**
 * The shape of one REST route, written once in {@link VENUE_ROUTES}: the engine registers its
 * Fastify routes from it and `/openapi.json` is generated from it, as Fastify's schema-beside-route.
 * Handlers are the engine's; this package only describes.
 */
import type { ErrorCode } from './errors.js';
import type { RATE_LIMIT } from './limits.js';
import type { Codec, JsonSchema } from './schema.js';

/** Who may call: anyone, any account's bearer token, an admin's bearer token. */
export type RouteAuth = 'public' | 'bearer' | 'admin';
export type RouteMethod = 'get' | 'post' | 'put' | 'delete';
/** The document's tags, in its order. */
export const ROUTE_TAGS = [
  'auth',
  'orders',
  'system',
  'attestation',
  'markets',
  'tree',
  'settlement',
  'account',
  'admin',
  'stream',
] as const;
export type RouteTag = (typeof ROUTE_TAGS)[number];

/** A path or query parameter as documented; handlers parse the raw string with their own codec. */
export interface RouteParam {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly schema: JsonSchema;
  readonly description?: string;
  /** A path parameter that is the rest of the path, slashes included (the router's `*`). */
  readonly wildcard?: true;
}

export interface RouteDescriptor {
  readonly method: RouteMethod;
  /** The OpenAPI path template, e.g. `/orders/{order_id}`. */
  readonly path: string;
  readonly tag: RouteTag;
  readonly summary: string;
  readonly auth: RouteAuth;
  /**
   * The DESIGN.md section 9 weight charged before anything of the request is parsed: to the
   * account's bucket behind its token, or on a public route to the caller's address bucket.
   */
  readonly charge?: keyof typeof RATE_LIMIT.cost;
  readonly params?: readonly RouteParam[];
  readonly body?: Codec<unknown>;
  /** A body limit above the server's default (bytes), for the few routes that take evidence. */
  readonly bodyLimit?: number;
  readonly ok: { readonly status: number; readonly codec?: Codec<unknown>; readonly description?: string };
  /** The documented error codes (401 1101 is added to every non-public route, 500 5000 to all). */
  readonly errors: readonly ErrorCode[];
  /** Answered by the WebSocket upgrade on the raw server, not by the REST router. */
  readonly upgrade?: true;
}

type ParamsOf<D> = D extends { readonly params: readonly (infer P)[] } ? P : never;

/** The router's path parameters of a route: `{ order_id: string }`, `{ '*': string }`. */
export type PathParamsOf<D> = {
  [
    P in ParamsOf<D> as P extends { in: 'path'; wildcard: true }
      ? '*'
      : P extends { in: 'path'; name: infer N extends string }
        ? N
        : never
  ]: string;
};

/** A route's query parameters, raw: absent, a string or (repeated) an array. */
export type QueryOf<D> = {
  [P in ParamsOf<D> as P extends { in: 'query'; name: infer N extends string } ? N : never]?: unknown;
};

/** The ids of a route table's routes a router answers (all but the WebSocket upgrades). */
export type RouterRouteIds<T> = {
  [K in keyof T]: T[K] extends { upgrade: true } ? never : K;
}[keyof T];

/** `[id, descriptor]` for every route of a table, in table order. */
export const tableEntries = <T extends object, D>(table: T): [keyof T, D][] =>
  Object.entries(table) as [keyof T, D][];

/** The router's form of a route's path: `{order_id}` as `:order_id`, a wildcard as `*`. */
export function routerPath(route: Pick<RouteDescriptor, 'path' | 'params'>): string {
  return route.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    route.params?.find((p) => p.name === name)?.wildcard ? '*' : `:${name}`,
  );
}
