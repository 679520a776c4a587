/**
 * The fills of the wallet's orders with their settlement: heard of from an order event naming a
 * match, or from the fill memo the wallet verified (size, price and fee), whichever comes first;
 * the settlement's stage, outcome and settle signature read from the venue's batch record. All is
 * kept in the wallet (`wallet.fills`), saved with it.
 */
import {
  fillKey,
  type Client,
  type OrderEvent,
  type SettlementStatusResponse,
  type TrackedFill,
  type WalletFillEvent,
} from '@nightjar/sdk';
import type { FillSummaryView, FillView } from '../api-types.js';
import type { TradingContext } from './context.js';
import { summarizeFills, type OwnFill } from './fill-summary.js';
import { fillView } from './views.js';

/** A settlement job's outcome as the fill's (a settled fill stays settled). */
function jobOutcome(job: { outcome?: string }, was: TrackedFill['settlement']['outcome']) {
  if (job.outcome === 'confirmed') return 'settled';
  if (job.outcome === 'rejected') return 'failed';
  return was === 'settled' ? 'settled' : 'pending';
}

/** An order event's outcome for the fill of its match. */
function eventOutcome(kind: OrderEvent['kind']): TrackedFill['settlement']['outcome'] {
  if (kind === 'settlement_failed') return 'failed';
  return kind === 'pending_settlement' ? 'pending' : 'settled';
}

export class Fills {
  constructor(private readonly ctx: TradingContext) {}

  private view(fill: TrackedFill): FillView | undefined {
    const order = this.ctx.wallet.orders.get(fill.orderId);
    return order && fillView(fill, order, this.ctx.markets.known(order.symbol));
  }

  private tell(fill: TrackedFill): void {
    const view = this.view(fill);
    if (view) this.ctx.emit({ type: 'fill', fill: view });
  }

  /** Every fill, newest first, the settling ones re-read from the venue first. */
  async views(): Promise<FillView[]> {
    const client = this.ctx.venue.require();
    const fills = [...this.ctx.wallet.fills.values()];
    const pending = fills.filter(
      (f) =>
        f.settlement.batchId !== undefined &&
        // Still settling, or settled without its signature yet; a failed one changes no more.
        (f.settlement.outcome === 'pending' ||
          (f.settlement.outcome === 'settled' && !f.settlement.signature)),
    );
    const batches = new Set(pending.map((f) => f.settlement.batchId!));
    await Promise.all([...batches].map((b) => this.refreshBatch(client, b).catch(() => undefined)));
    return fills
      .map((f) => this.view(f))
      .filter((v): v is FillView => v !== undefined)
      .sort((a, b) => b.time - a.time);
  }

  /** Per market: average fill prices, fees paid and realised P&L from the wallet's own fills. */
  summary(): FillSummaryView[] {
    this.ctx.venue.require();
    const own: OwnFill[] = [];
    for (const fill of this.ctx.wallet.fills.values()) {
      const order = this.ctx.wallet.orders.get(fill.orderId);
      const inst = order && this.ctx.markets.known(order.symbol);
      if (order && inst) own.push({ fill, order, inst });
    }
    return summarizeFills(own);
  }

  /** Reads a batch's settlement record (stage, outcome, settle signature) into its fills. */
  private async refreshBatch(client: Client, batchId: string): Promise<void> {
    const rec = await client.request<SettlementStatusResponse>(`/settlement/status/${batchId}`);
    for (const f of this.ctx.wallet.fills.values()) {
      if (f.settlement.batchId !== batchId) continue;
      const job = rec.jobs.find((j) => j.match_id === f.matchId);
      if (!job) continue;
      const before = JSON.stringify(f.settlement);
      f.settlement = {
        batchId,
        stage: job.stage,
        outcome: jobOutcome(job, f.settlement.outcome),
        ...(job.settle_signature ? { signature: job.settle_signature } : {}),
      };
      if (JSON.stringify(f.settlement) !== before) this.tell(f);
    }
    this.ctx.wallet.save();
  }

  /** An order event naming a match: its fill's settlement (and size, when no memo told it yet). */
  onMatchEvent(event: OrderEvent & { match_id: string }): void {
    if (!this.ctx.wallet.orders.has(event.order_id)) return;
    const fill = this.ctx.wallet.trackFill(event.order_id, event.match_id);
    const batch = event.batch_id === undefined ? fill.settlement.batchId : String(event.batch_id);
    const outcome = eventOutcome(event.kind);
    fill.settlement = {
      ...fill.settlement,
      ...(batch === undefined ? {} : { batchId: batch }),
      stage: outcome === 'settled' ? 'done' : outcome === 'failed' ? 'failed' : fill.settlement.stage,
      outcome,
    };
    if (fill.size === undefined && event.filled_quantity !== undefined && outcome === 'settled')
      fill.size = BigInt(event.filled_quantity);
    this.ctx.wallet.save();
    this.tell(fill);
    // The settlement record names the stage and, once confirmed, the ledger's signature.
    const client = this.safeClient();
    if (batch !== undefined && client) void this.refreshBatch(client, batch).catch(() => undefined);
  }

  /** A fill memo the wallet stored (it recorded the size, price and fee): the fill is settled. */
  onWalletFill(f: WalletFillEvent): void {
    const fill = this.ctx.wallet.fills.get(fillKey(f.orderId, f.matchId));
    if (!fill || !this.ctx.markets.known(f.order.symbol)) return;
    if (fill.settlement.outcome === 'pending') fill.settlement = { ...fill.settlement, outcome: 'settled' };
    this.ctx.wallet.save();
    this.tell(fill);
    this.ctx.balancesSoon();
  }

  private safeClient(): Client | undefined {
    try {
      return this.ctx.venue.require();
    } catch {
      return undefined;
    }
  }
}
