/**
 * The shape of one local API route, written once in {@link APP_ROUTES}: the server registers its
 * Fastify routes from it, parses bodies with its codec and derives `/api/v1/openapi.json` from it,
 * as the venue does from protocol's `VENUE_ROUTES` (whose parameter form and router path it shares).
 */
import type { Codec, PathParamsOf, RouteParam } from '@nightjar/protocol';

/** Every route is under this prefix. */
export const API_PREFIX = '/api/v1';

/**
 * Who may call: any session (the browser's cookie or the bot token, checked for every `/api/`
 * request), or a session holding an operator login (checked by `Operators`, 403 without one).
 */
export type AppRouteAuth = 'session' | 'operator';
export type AppRouteMethod = 'get' | 'post' | 'patch' | 'delete';
/** The document's tags, in its order. */
export const APP_ROUTE_TAGS = ['system', 'venue', 'trading', 'operator', 'events'] as const;
export type AppRouteTag = (typeof APP_ROUTE_TAGS)[number];

/** The HTTP statuses a route answers with the `ApiError` envelope. */
export type AppErrorStatus = 400 | 401 | 403 | 404 | 409 | 503;

export interface AppRouteDescriptor {
  readonly method: AppRouteMethod;
  /** The OpenAPI path template under {@link API_PREFIX}, e.g. `/orders/{order_id}`. */
  readonly path: string;
  readonly tag: AppRouteTag;
  readonly summary: string;
  readonly auth: AppRouteAuth;
  readonly params?: readonly RouteParam[];
  /** Parses the request body (a 400 BAD_REQUEST naming the field) and documents it. */
  readonly body?: Codec<unknown>;
  readonly ok: { readonly status: number; readonly codec?: Codec<unknown> };
  readonly errors: readonly AppErrorStatus[];
  /** Answered by the WebSocket upgrade on the raw server, not by the router. */
  readonly upgrade?: true;
}

/** What a route's body codec parses to (undefined for a route without a body). */
export type BodyOf<D> = D extends { readonly body: Codec<infer T> } ? T : undefined;
/** What a route answers: its ok codec's type. */
export type OkOf<D> = D extends { readonly ok: { readonly codec: Codec<infer T> } } ? T : unknown;
export type { PathParamsOf };
