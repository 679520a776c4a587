/**
 * Start-up: each market's book behind its single writer, by symbol. Batch ids continue across
 * boots (the pipeline's journal seeds them), and so do each market's match ids.
 */
import type { MarketRegistry } from '../markets.js';
import type { VenueEventBus } from '../event-bus.js';
import { MarketEngine, type SpentNotes } from '../orders/market-engine.js';
import { MarketWriter } from '../orders/market-writer.js';
import type { OrderRegistry } from '../orders/order-registry.js';
import type { SettlementPipeline } from '../settlement/pipeline.js';
import type { SettlementSeam } from '../settlement/types.js';

export interface MarketWritersDeps {
  markets: MarketRegistry;
  registry: OrderRegistry;
  events: VenueEventBus;
  settlement: SettlementSeam;
  pipeline: SettlementPipeline | undefined;
  settlementBufferSlots: bigint;
  spentNotes: SpentNotes;
  now(): number;
}

/** Fills `writers` (settlement's order effects already hold the map). */
export function openMarkets(writers: Map<string, MarketWriter>, d: MarketWritersDeps): void {
  let batchId = d.pipeline?.nextBatchIdSeed() ?? 0n;
  for (const instrument of d.markets.list()) {
    const market = new MarketEngine(instrument, {
      registry: d.registry,
      settlement: d.settlement,
      settlementBufferSlots: d.settlementBufferSlots,
      now: d.now,
      nextBatchId: () => ++batchId,
      spentNotes: d.spentNotes,
      ...(d.pipeline ? { firstMatchId: d.pipeline.firstMatchId(instrument.market_id) } : {}),
    });
    writers.set(instrument.symbol, new MarketWriter(market, { events: d.events, settlement: d.settlement }));
  }
}
