/**
 * Handlers of the prover pool's routes: `GET /prover/challenge` and `POST /prover/register`. They
 * answer 404 on an engine without a prover pool, and are charged to the caller's address like the
 * quote routes (registration costs a quote verification).
 */
import type { FastifyRequest } from 'fastify';
import { parseBody, proverEvidenceCodec, VenueError } from '@nightjar/protocol';
import type { AddressLimiter } from '../../limits/address-limiter.js';
import type { ProverRegistration } from '../../prover-pool/registration.js';
import type { RouteHandlers } from '../register-routes.js';

export interface ProverRoutesOptions {
  /** Absent when the engine runs without `proverPool`. */
  registration: ProverRegistration | undefined;
  limiter: AddressLimiter;
}

export function proverHandlers({ registration, limiter }: ProverRoutesOptions) {
  const admit = (req: FastifyRequest): ProverRegistration => {
    if (!registration) throw new VenueError(1301, 'this engine runs no prover pool');
    limiter.charge(req.ip, 1, 'attestation');
    return registration;
  };
  return {
    proverChallenge: async (req) => admit(req).challenge(),
    proverRegister: async (req) => {
      const pool = admit(req);
      const parsed = parseBody(proverEvidenceCodec, req.body);
      if (!parsed.ok) throw new VenueError(parsed.code, parsed.message);
      return pool.register(parsed.value);
    },
  } satisfies Partial<RouteHandlers>;
}
