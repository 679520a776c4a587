/**
 * The prover pool's routes (DESIGN 11), part of `VENUE_ROUTES`: a worker takes a single-use
 * nonce, then registers evidence binding it; the engine admits it only after checks (a)–(d).
 * Engines without a prover pool answer both with 404.
 */
import {
  PROVER_EVIDENCE_MAX_BYTES,
  proverChallengeCodec,
  proverEvidenceCodec,
  proverRegistrationCodec,
} from './prover-attestation.js';
import type { RouteDescriptor } from './route-descriptor.js';

export const PROVER_ROUTES = {
  proverChallenge: {
    method: 'get',
    path: '/prover/challenge',
    tag: 'attestation',
    summary: 'A single-use nonce a prover worker binds into its attestation (engines with a prover pool)',
    auth: 'public',
    ok: { status: 200, codec: proverChallengeCodec },
    errors: [1301, 1401],
  },
  proverRegister: {
    method: 'post',
    path: '/prover/register',
    tag: 'attestation',
    summary: "A prover worker's attestation, checked (a)–(d); jobs are sealed only to workers it admits",
    auth: 'public',
    body: proverEvidenceCodec,
    bodyLimit: PROVER_EVIDENCE_MAX_BYTES,
    ok: { status: 200, codec: proverRegistrationCodec },
    errors: [1001, 1150, 1301, 1401, 5001],
  },
} as const satisfies Record<string, RouteDescriptor>;
