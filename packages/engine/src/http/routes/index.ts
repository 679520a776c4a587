/**
 * The engine's REST handlers, one per route of protocol's `VENUE_ROUTES`, gathered by area:
 *
 * - `system.ts`: health, time, readiness, venue identity, the OpenAPI document
 * - `instruments.ts`: market metadata
 * - `tree.ts`: the tree mirror's root, inclusion proofs and leaves
 * - `orders.ts`: place, status, cancel, modify, the account's open orders
 * - `operations.ts`: drain, settlement status and metrics, `/transparency`
 * - `accounts.ts`: tokens, account settings, admin account management; the bearer/admin guards
 * - `attestation.ts`: quotes and evidence files
 * - `prover.ts`: prover workers' challenges and registration (engines with a prover pool)
 * - `front-doors.ts`: the guards and rate-limit buckets a route's `auth` and `charge` name
 *
 * `../register-routes.ts` registers them; `/v1/stream` is the stream's upgrade, not a handler here.
 */
import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../context.js';
import { registerRoutes, type RouteHandlers } from '../register-routes.js';
import { accountHandlers } from './accounts.js';
import { attestationHandlers, type AttestationRoutesOptions } from './attestation.js';
import { frontDoors } from './front-doors.js';
import { instrumentHandlers } from './instruments.js';
import { operationsHandlers } from './operations.js';
import { orderHandlers } from './orders.js';
import { proverHandlers, type ProverRoutesOptions } from './prover.js';
import { systemHandlers } from './system.js';
import { treeHandlers } from './tree.js';

/** Every REST route's handler; leaving one out does not compile. */
export function venueHandlers(
  ctx: EngineContext,
  attestation: AttestationRoutesOptions & Pick<ProverRoutesOptions, 'registration'>,
): RouteHandlers {
  return {
    ...systemHandlers(ctx),
    ...instrumentHandlers(ctx),
    ...treeHandlers(ctx),
    ...orderHandlers(ctx),
    ...operationsHandlers(ctx),
    ...accountHandlers(ctx.accounts),
    ...attestationHandlers(attestation),
    ...proverHandlers({ registration: attestation.registration, limiter: attestation.limiter }),
  };
}

/** Registers every REST route of the venue on `app`. */
export function registerVenueRoutes(
  app: FastifyInstance,
  ctx: EngineContext,
  attestation: AttestationRoutesOptions & Pick<ProverRoutesOptions, 'registration'>,
): void {
  registerRoutes(app, frontDoors(ctx), venueHandlers(ctx, attestation));
}
