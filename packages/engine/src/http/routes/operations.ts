/**
 * Operator and transparency routes, and the seams later issues fill: settlement status, drain,
 * settlement metrics. Until those exist they answer plainly.
 */
import type { FastifyInstance } from 'fastify';
import { parseParam, queryParams, VenueError, type DrainStatusResponse } from '@nightjar/protocol';
import type { EngineContext } from '../../context.js';

export async function operationsRoutes(app: FastifyInstance, { ctx }: { ctx: EngineContext }): Promise<void> {
  const admin = { preHandler: ctx.requireAdmin };

  const drainStatus = (): DrainStatusResponse => ({
    state:
      ctx.drain.startedAtMs === undefined ? 'idle' : ctx.registry.liveCount === 0 ? 'drained' : 'draining',
    ...(ctx.drain.startedAtMs === undefined ? {} : { started_at_ms: BigInt(ctx.drain.startedAtMs) }),
    open_orders: BigInt(ctx.registry.liveCount),
    pending_settlements: BigInt(ctx.settlement.pendingBatches()),
  });
  app.get('/admin/drain', admin, async () => drainStatus());
  app.post('/admin/drain', admin, async () => {
    ctx.drain.startedAtMs ??= ctx.now();
    return drainStatus();
  });
  app.delete('/admin/drain', admin, async () => {
    ctx.drain.startedAtMs = undefined;
    return drainStatus();
  });

  app.get('/admin/metrics/settlement', admin, async () => ({
    settlement: ctx.settlement.state,
    pending_batches: ctx.settlement.pendingBatches(),
    open_orders: ctx.registry.liveCount,
  }));

  app.get<{ Params: { batch_id: string } }>(
    '/settlement/status/:batch_id',
    { preHandler: ctx.requireAccount },
    async (req) => {
      parseParam(queryParams.batch_id, req.params.batch_id, 'batch_id');
      throw new VenueError(1301, 'no such batch (settlement is not wired in this build)');
    },
  );

  app.get('/transparency', async () => ({
    engine: {
      boot_session_id: ctx.bootSessionId,
      tee_keys: ctx.chain.teeKeys,
      signer_set_sha256: ctx.chain.signerSetSha256,
      compose_hash: ctx.attestation.compose_hash,
    },
    markets: ctx.markets.list().map((m) => ({ symbol: m.symbol, market_id: m.market_id })),
    stats: { open_orders: ctx.registry.liveCount, settlement: ctx.settlement.state },
  }));
  // Transport attestation, /attestation and /evidences/* live in attestation/routes.ts.
}
