/**
 * Route options that charge a request before anything of it is parsed (`onRequest`), by the
 * weights of DESIGN.md section 9 (place 1.0, modify 1.2, cancel 0.2, reads 0.1): an account's
 * bucket behind its bearer token, or, on public routes that cost work, the caller's address bucket.
 */
import type { FastifyRequest } from 'fastify';
import { RATE_LIMIT } from '@nightjar/protocol';
import { principalOf } from '../../accounts/routes.js';
import type { EngineContext } from '../../context.js';
import type { OrderOperation } from '../../orders/intake.js';

/** The token, then the account's bucket (REST and the stream share it). */
export function accountDoor(ctx: EngineContext, op: OrderOperation) {
  return {
    onRequest: [ctx.requireAccount, async (req: FastifyRequest) => ctx.intake.admit(principalOf(req), op)],
  };
}

/** A public read: the caller's address bucket, at the read weight. */
export function publicReadDoor(ctx: EngineContext) {
  return {
    onRequest: async (req: FastifyRequest) =>
      ctx.publicReads.charge(req.ip, RATE_LIMIT.cost.read, 'public reads'),
  };
}
