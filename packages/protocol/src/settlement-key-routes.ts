/**
 * The route a peer engine checks this engine's settlement key with (DESIGN 11), part of
 * `VENUE_ROUTES` among the attestation routes: a quote binding the key to the caller's nonce,
 * limited as the other quote routes are; 404 on an engine that settles nothing.
 */
import type { RouteDescriptor } from './route-descriptor.js';
import { hex } from './route-params.js';
import { settlementKeyEvidenceCodec } from './settlement-key-attestation.js';

export const SETTLEMENT_KEY_ROUTES = {
  settlementKeyAttestation: {
    method: 'get',
    path: '/attestation/settlement-key',
    tag: 'attestation',
    summary:
      "The engine's settlement key bound to a fresh caller nonce by a quote (what a peer engine checks before registering it as a signer)",
    auth: 'public',
    params: [
      {
        name: 'nonce',
        in: 'query',
        required: true,
        schema: hex(32),
        description:
          'A fresh caller nonce. The quote covers nonce ‖ SHA-256("nightjar/settlement-key/v1" ‖ the key), never caller bytes.',
      },
    ],
    ok: { status: 200, codec: settlementKeyEvidenceCodec },
    errors: [1001, 1301, 1401, 5001],
  },
} as const satisfies Record<string, RouteDescriptor>;
