/**
 * The venue's front doors, by the weights of DESIGN.md section 9 (place 1.0, modify 1.2, cancel
 * 0.2, reads 0.1): an account's bucket behind its bearer token (REST and the stream share it), or,
 * on public routes that cost work, the caller's address bucket.
 */
import { RATE_LIMIT } from '@nightjar/protocol';
import { principalOf } from './accounts.js';
import type { EngineContext } from '../context.js';
import type { FrontDoors } from '../register-routes.js';

export function frontDoors(ctx: EngineContext): FrontDoors {
  return {
    requireAccount: ctx.requireAccount,
    requireAdmin: ctx.requireAdmin,
    admit: (req, op) => ctx.intake.admit(principalOf(req), op),
    chargeAddress: (req, op) => ctx.publicReads.charge(req.ip, RATE_LIMIT.cost[op], 'public reads'),
  };
}
