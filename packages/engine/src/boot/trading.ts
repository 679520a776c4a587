/**
 * Start-up, the second phase: trading. The order lookup and the event bus; settlement, whose
 * outcomes reach the markets through their writers; the markets (one writer each), started with
 * the nullifier mirror and the pipeline (which reconciles its journal); intake and the stream in
 * front of them; the tree mirror's leaves onto the bus; and the slot that drives every auction.
 */
import { SETTLEMENT_BUFFER_SLOTS } from '@nightjar/protocol';
import type { EngineOptions } from '../engine-options.js';
import type { VenueEventBus } from '../event-bus.js';
import type { Intake } from '../orders/intake.js';
import { LockFailureThrottle } from '../orders/lock-failure-throttle.js';
import type { MarketWriter } from '../orders/market-writer.js';
import { OrderRegistry } from '../orders/order-registry.js';
import { SettlementEffects } from '../orders/settlement-effects.js';
import { StreamService } from '../stream/stream-service.js';
import { Drain } from '../venue/drain.js';
import { TradingGate } from '../venue/trading-gate.js';
import type { BootCore } from './core.js';
import { createEventBus, publishTreeEvents } from './event-bus.js';
import { createIntake } from './intake.js';
import { openMarkets } from './markets.js';
import type { ProverRegistration } from '../prover-pool/registration.js';
import { startSettlement, type SettlementParts } from './settlement.js';

export interface Trading extends SettlementParts {
  settlementBufferSlots: bigint;
  registry: OrderRegistry;
  events: VenueEventBus;
  drain: Drain;
  gate: TradingGate;
  intake: Intake;
  stream: StreamService;
  /** Stops the tree publications and the slot's auctions. */
  offTree(): void;
  offSlot(): void;
}

export async function startTrading(
  options: EngineOptions,
  core: BootCore,
  registration?: ProverRegistration,
): Promise<Trading> {
  const { now, app, views } = core;
  const { chain, trees, notes } = views;
  const settlementBufferSlots = options.settlementBufferSlots ?? SETTLEMENT_BUFFER_SLOTS;
  const registry = new OrderRegistry();
  const events = createEventBus(options, (err) =>
    app.log.error({ err: err instanceof Error ? err.message : String(err) }, 'event bus listener failed'),
  );
  const lockFailures = new LockFailureThrottle();
  // Each market's single writer, by symbol: filled once settlement exists to take batches;
  // settlement's outcomes reach the markets through it.
  const writers = new Map<string, MarketWriter>();
  const effects = new SettlementEffects({
    registry,
    events,
    marketBySymbol: writers,
    now,
    unusableNote: (accountId, nullifier, state) => {
      notes.learn(nullifier, state, chain.slot);
      lockFailures.record(accountId, chain.slot);
    },
  });
  const parts = await startSettlement(options, {
    ...views,
    platform: core.store.platform,
    log: app.log,
    now,
    effects,
    matchBatcher: core.verifiers.matchBatcher,
    ...(registration ? { registration } : {}),
    signerSetScope: core.directory.signerSetScope,
  });
  const { settlement, pipeline } = parts;
  const drain = new Drain({ now, openOrders: () => registry.liveCount, settlement });
  const gate = new TradingGate({ drain, chain });
  openMarkets(writers, {
    markets: views.markets,
    registry,
    events,
    settlement,
    pipeline,
    settlementBufferSlots,
    spentNotes: notes,
    now,
  });
  await notes.start();
  await pipeline?.start();

  const intake = createIntake(options, {
    bootSessionId: core.bootSessionId,
    settlementBufferSlots,
    markets: writers,
    registry,
    checkOrder: core.verifiers.checkOrder,
    views,
    gate,
    lockFailures,
    now,
    sharedOrderLimiter: core.store.sharedLimiters?.order,
    directory: core.directory.directory,
  });
  const stream = new StreamService({
    accounts: core.accounts,
    intake,
    events,
    now,
    log: app.log,
    ...(options.stream === undefined ? {} : { options: options.stream }),
  });
  const offTree = publishTreeEvents(trees, events);
  const offSlot = chain.onSlot((slot) => {
    for (const m of writers.values()) m.onSlot(BigInt(slot));
  });
  return { ...parts, settlementBufferSlots, registry, events, drain, gate, intake, stream, offTree, offSlot };
}
