/**
 * Fastify routes from protocol's route table: each descriptor's method, path, front door (auth
 * and rate-limit charge) and success status, with the handler the engine attaches to its id.
 * `/openapi.json` is generated from the same table, so a served route is a documented one.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import {
  routeEntries,
  routerPath,
  type PathParamsOf,
  type QueryOf,
  type Codec,
  type RestRouteId,
  type RouteDescriptor,
  type VENUE_ROUTES,
} from '@nightjar/protocol';
import type { OrderOperation } from '../orders/intake.js';

type Guard = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** What a route's `auth` and `charge` ask for. */
export interface FrontDoors {
  /** A valid bearer token (any account) / an admin's token; they set `req.principal`. */
  requireAccount: Guard;
  requireAdmin: Guard;
  /** Charges the token's account bucket (after the guard), as the stream's order ops are charged. */
  admit(req: FastifyRequest, op: OrderOperation): void | Promise<void>;
  /** Charges the caller's address bucket on a public route that costs work. */
  chargeAddress(req: FastifyRequest, op: OrderOperation): void;
}

type Descriptor<K extends RestRouteId> = (typeof VENUE_ROUTES)[K];

/** What route `K` answers with: its response codec's type, or the reply it sent itself. */
type ResponseOf<K extends RestRouteId> =
  (Descriptor<K>['ok'] extends { codec: Codec<infer T> } ? T : unknown) | FastifyReply;

/** The handler of route `K`, its parameters and response typed from the descriptor. */
export type RouteHandler<K extends RestRouteId> = (
  req: FastifyRequest<{ Params: PathParamsOf<Descriptor<K>>; Querystring: QueryOf<Descriptor<K>> }>,
  reply: FastifyReply,
) => Promise<ResponseOf<K>>;

/** One handler per REST route of the table: a missing one is a compile error. */
export type RouteHandlers = { [K in RestRouteId]: RouteHandler<K> };

/**
 * Token and bucket checks that charge run in `onRequest`, before the body is even parsed, so a
 * request over the limit costs no parsing, signature or proof work; plain guards run as preHandler.
 */
function hooksOf(doors: FrontDoors, route: RouteDescriptor): RouteShorthandOptions {
  const { charge } = route;
  if (route.auth === 'public')
    return charge ? { onRequest: async (req) => doors.chargeAddress(req, charge) } : {};
  const guard = route.auth === 'admin' ? doors.requireAdmin : doors.requireAccount;
  if (!charge) return { preHandler: guard };
  return { onRequest: [guard, async (req: FastifyRequest) => doors.admit(req, charge)] };
}

/** Registers every route of the table that `handlers` answers. */
export function registerRoutes(
  app: FastifyInstance,
  doors: FrontDoors,
  handlers: Partial<RouteHandlers>,
): void {
  for (const [id, route] of routeEntries()) {
    const handle = handlers[id as RestRouteId] as
      ((req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | undefined;
    if (route.upgrade || !handle) continue;
    const { status } = route.ok;
    app.route({
      method: route.method.toUpperCase(),
      url: routerPath(route),
      ...hooksOf(doors, route),
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      handler:
        status === 200
          ? handle
          : async (req, reply) => {
              void reply.status(status);
              return handle(req, reply);
            },
    });
  }
}
