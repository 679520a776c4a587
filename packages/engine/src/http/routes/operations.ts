/** Operator and transparency routes: settlement status and metrics, the drain, `/transparency`. */
import { parseParam, queryParams, VenueError } from '@nightjar/protocol';
import type { EngineContext } from '../context.js';
import type { RouteHandlers } from '../register-routes.js';

const TRANSPARENCY_CACHE_MS = 1000;

interface TransparencyLedgerPart {
  shards: { tree_id: number; merkle_root: string; leaf_count: bigint }[];
  mints: { mint: string; vault_balance: bigint; outstanding_note_value: bigint }[];
}

/** The ledger's half of the snapshot; any failure to read it is a ledger outage (503 5001). */
async function readLedgerPart(ctx: EngineContext): Promise<TransparencyLedgerPart> {
  try {
    return await readLedger(ctx);
  } catch {
    throw new VenueError(5001, 'the ledger is unavailable; retry shortly');
  }
}

async function readLedger(ctx: EngineContext): Promise<TransparencyLedgerPart> {
  const [solvency, ...roots] = await Promise.all([
    ctx.ledger.getSolvency(),
    ...Array.from({ length: ctx.trees.numTrees }, (_, tree_id) => ctx.ledger.getTreeRoot({ tree_id })),
  ]);
  return {
    shards: roots.map((r) => ({
      tree_id: r.tree_id,
      merkle_root: r.merkle_root,
      leaf_count: BigInt(r.leaf_count),
    })),
    mints: solvency.mints.map((m) => ({
      mint: m.mint,
      vault_balance: BigInt(m.vault_balance),
      outstanding_note_value: BigInt(m.outstanding_note_value),
    })),
  };
}

export function operationsHandlers(ctx: EngineContext) {
  // Ledger reads behind /transparency are cached briefly: a public endpoint must not fan out.
  let cached: { at: number; value: Promise<TransparencyLedgerPart> } | undefined;
  const ledgerPart = (): Promise<TransparencyLedgerPart> => {
    if (!cached || ctx.now() - cached.at > TRANSPARENCY_CACHE_MS) {
      const value = readLedgerPart(ctx);
      cached = { at: ctx.now(), value };
      value.catch(() => (cached = undefined));
    }
    return cached.value;
  };

  return {
    drainStatus: async () => ctx.drain.status(),
    beginDrain: async () => ctx.drain.begin(),
    cancelDrain: async () => ctx.drain.cancel(),
    settlementMetrics: async () => ({
      settlement: ctx.settlement.state,
      pending_batches: ctx.settlement.pendingBatches(),
      open_orders: ctx.registry.liveCount,
      ...ctx.settlement.metricsSnapshot(),
    }),
    settlementStatus: async (req) => {
      const batchId = parseParam(queryParams.batch_id, req.params.batch_id, 'batch_id');
      const record = ctx.settlement.status(BigInt(batchId));
      if (!record)
        throw new VenueError(1301, 'no such batch (only the last 1,024 finished batches are kept)');
      return record;
    },
    transparency: async () => {
      // A ledger the chain view already knows is down is not asked again.
      if (!ctx.chain.available) throw new VenueError(5001, 'the ledger is unavailable; retry shortly');
      const part = await ledgerPart();
      let resting = 0;
      for (const o of ctx.registry.liveOrders()) if (o.lifecycle === 'pending') resting += 1;
      const totals = ctx.settlement.totals();
      return {
        slot: BigInt(ctx.chain.slot),
        engine: {
          boot_session_id: ctx.bootSessionId,
          tee_keys: ctx.chain.teeKeys,
          signer_set_sha256: ctx.chain.signerSetSha256,
          compose_hash: ctx.attestation.compose_hash,
        },
        ...part,
        orders: { resting, pending_settlement: ctx.registry.liveCount - resting },
        settlement: totals,
      };
    },
  } satisfies Partial<RouteHandlers>;
}
