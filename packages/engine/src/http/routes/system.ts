/** Public system reads: health, time, readiness, venue identity and the OpenAPI document. */
import {
  API_VERSION,
  CANCEL_DOMAIN,
  LEAVES_PAGE_CAP,
  MAX_ORDER_LIFETIME_SLOTS,
  openApiJson,
  ORDER_DOMAIN,
  type HealthResponse,
  type InfoResponse,
  type SystemStatusResponse,
  type TimeResponse,
} from '@nightjar/protocol';
import type { EngineContext } from '../context.js';
import type { RouteHandlers } from '../register-routes.js';

export function systemHandlers(ctx: EngineContext) {
  const openapi = openApiJson();
  return {
    health: async (): Promise<HealthResponse> => ({
      status: 'ok',
      uptime_ms: BigInt(Math.round(performance.now() - ctx.startedAtPerf)),
    }),
    time: async (): Promise<TimeResponse> => ({
      slot: BigInt(ctx.chain.slot),
      unix_ms: BigInt(ctx.now()),
    }),
    systemStatus: async (): Promise<SystemStatusResponse> => ctx.systemStatus(),
    info: async (): Promise<InfoResponse> => ({
      boot_session_id: ctx.bootSessionId,
      api_version: API_VERSION,
      order_domain: ORDER_DOMAIN,
      cancel_domain: CANCEL_DOMAIN,
      tee_keys: ctx.chain.teeKeys,
      signer_set_sha256: ctx.chain.signerSetSha256,
      num_trees: ctx.trees.numTrees,
      settlement_buffer_slots: ctx.settlementBufferSlots,
      max_order_lifetime_slots: MAX_ORDER_LIFETIME_SLOTS,
      leaves_page_cap: LEAVES_PAGE_CAP,
      attestation: ctx.attestation,
      circuit_keys: ctx.circuitKeys,
    }),
    openapi: async (_req, reply) => reply.type('application/json').send(openapi),
  } satisfies Partial<RouteHandlers>;
}
