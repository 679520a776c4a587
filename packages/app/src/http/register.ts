/**
 * Fastify routes from the app's route table: each descriptor's method, path and success status,
 * its body parsed by its codec, and the handler attached to its id. The front door (Host, Origin,
 * session) runs before, in the server's `onRequest` hook, for every `/api/` request.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routerPath } from '@nightjar/protocol';
import type { Session } from '../security.js';
import {
  API_PREFIX,
  type AppRouteDescriptor,
  type BodyOf,
  type OkOf,
  type PathParamsOf,
} from '../api/route-descriptor.js';
import { appRouteEntries, type APP_ROUTES, type AppRestRouteId } from '../api/routes.js';

type Descriptor<K extends AppRestRouteId> = (typeof APP_ROUTES)[K];

/** What a handler of route `K` is given: its parsed body and path parameters, and the session. */
export interface AppCall<K extends AppRestRouteId> {
  readonly params: PathParamsOf<Descriptor<K>>;
  readonly body: BodyOf<Descriptor<K>>;
  /** The caller's session (the browser's or the bot token's), checked before any route. */
  readonly session: Session;
  readonly reply: FastifyReply;
}

/** The handler of route `K`: its answer typed by the route's ok codec. */
export type AppHandler<K extends AppRestRouteId> = (call: AppCall<K>) => Promise<OkOf<Descriptor<K>>>;

/** One handler per route of the table: a missing one is a compile error. */
export type AppHandlers = { [K in AppRestRouteId]: AppHandler<K> };

declare module 'fastify' {
  interface FastifyRequest {
    appSession: Session | null;
  }
}

/**
 * Checks a route's `auth` beyond the session (the operator's login) before its body is parsed,
 * so a caller without the login learns nothing from how its body was refused.
 */
export type AuthGuards = { [A in AppRouteDescriptor['auth']]?: (session: Session) => void };

/** Registers every route of the table but the WebSocket upgrade. */
export function registerAppRoutes(
  app: FastifyInstance,
  handlers: AppHandlers,
  guards: AuthGuards = {},
): void {
  for (const [id, route] of appRouteEntries()) {
    if (route.upgrade) continue;
    const handle = handlers[id as AppRestRouteId] as (call: AppCall<AppRestRouteId>) => Promise<unknown>;
    const { status } = route.ok;
    app.route({
      method: route.method.toUpperCase(),
      url: API_PREFIX + routerPath(route),
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        guards[route.auth]?.(req.appSession!);
        const body = route.body?.parse(req.body) as never;
        const answer = await handle({ params: req.params as never, body, session: req.appSession!, reply });
        return reply.status(status).send(answer);
      },
    });
  }
}
