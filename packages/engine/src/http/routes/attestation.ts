/**
 * Handlers of the public attestation routes: `GET /transport-attestation?nonce=`,
 * `GET /attestation?reportData=`, `GET /attestation/settlement-key?nonce=` (404 on an engine
 * without a settlement key) and `GET /evidences/*`. Quotes cost signatures, so the quote routes
 * share a small per-address token bucket under a venue-wide quote budget (429 1401 with
 * Retry-After), charged before anything is parsed.
 */
import type { FastifyRequest } from 'fastify';
import {
  ATTESTATION_CALLER_DATA_MAX_BYTES,
  hexBytes,
  parseParam,
  text,
  VenueError,
} from '@nightjar/protocol';
import type { AddressLimiter } from '../../limits/address-limiter.js';
import type { RouteHandlers } from '../register-routes.js';
import { EVIDENCE_HEADER, EVIDENCE_HEADER_VALUE, type EvidenceFiles } from '../../attestation/evidence.js';
import type { AttestationService } from '../../attestation/service.js';

export interface AttestationRoutesOptions {
  service: AttestationService;
  evidence: EvidenceFiles;
  limiter: AddressLimiter;
  /** This engine's settlement key (Base58); undefined when it settles nothing. */
  settlementKey: () => string | undefined;
}

const nonceCodec = hexBytes(32, { description: 'A fresh caller nonce.' });
/** The caller's bytes; the quote covers SHA-512 of them under the route's domain, never them. */
const reportDataCodec = text({
  maxLength: 2 * ATTESTATION_CALLER_DATA_MAX_BYTES,
  pattern: '^([0-9a-fA-F]{2})*$',
});

export function attestationHandlers({ service, evidence, limiter, settlementKey }: AttestationRoutesOptions) {
  const charge = (req: FastifyRequest) => limiter.charge(req.ip, 1, 'attestation');
  return {
    transportAttestation: async (req) => {
      charge(req);
      const nonce = parseParam(nonceCodec, req.query.nonce, 'nonce');
      return service.transportAttestation(Buffer.from(nonce, 'hex'));
    },
    attestation: async (req) => {
      charge(req);
      const raw =
        req.query.reportData === undefined
          ? ''
          : parseParam(reportDataCodec, req.query.reportData, 'reportData');
      return service.attestation(Buffer.from(raw, 'hex'));
    },
    settlementKeyAttestation: async (req) => {
      const teeKey = settlementKey();
      if (teeKey === undefined) throw new VenueError(1301, 'this engine has no settlement key');
      charge(req);
      const nonce = parseParam(nonceCodec, req.query.nonce, 'nonce');
      return service.settlementKeyAttestation(Buffer.from(nonce, 'hex'), teeKey);
    },
    evidence: async (req, reply) => {
      const file = evidence.get(req.params['*']);
      if (!file) throw new VenueError(1301, 'no such evidence file');
      return reply.header(EVIDENCE_HEADER, EVIDENCE_HEADER_VALUE).type(file.type).send(file.body);
    },
  } satisfies Partial<RouteHandlers>;
}
