/**
 * Test-only: one market's single writer wired to real settlement planning and the real order
 * effects, with no ledger. Each auction's matches are planned exactly as the pipeline plans them
 * (a throw surfaces in the test), and `confirm` reports them settled the way the pipeline does.
 */
import { marketAddress, mintAddress } from '@nightjar/ledger';
import { requiredCollateral, type Instrument } from '@nightjar/protocol';
import { planMatch } from '../settlement/plan.js';
import type { JobState, SettlementBatch, SettlementSeam } from '../settlement/types.js';
import type { EngineOrder } from './engine-order.js';
import { VenueEventBus, type OrderEventBody } from '../event-bus.js';
import type { MarketCommand } from './market-commands.js';
import { MarketEngine } from './market-engine.js';
import { OrderRegistry } from './order-registry.js';
import { SettlementEffects } from './settlement-effects.js';

/** The dev ledger's SOL-USDC market (genesis.ts): price_scale 1e9, tick 1000, minimum 1e6, 10 bps. */
export const SOL_USDC: Instrument = {
  symbol: 'SOL-USDC',
  market_id: marketAddress('SOL-USDC'),
  base_mint: mintAddress('SOL'),
  quote_mint: mintAddress('USDC'),
  base_decimals: 9,
  quote_decimals: 6,
  price_scale: 1_000_000_000n,
  tick_size: 1_000n,
  min_order_size: 1_000_000n,
  fee_bps: 10n,
  trading_enabled: true,
};

/** Distinct field elements (all below the BN254 modulus): a tag byte, then a counter. */
const hex32 = (tag: number, n: number) =>
  tag.toString(16).padStart(2, '0') + n.toString(16).padStart(62, '0');
const FEE_OWNER = hex32(15, 1);

/** Exactly the collateral an order needs (DESIGN.md section 4). */
export const required = (i: Instrument, side: 'bid' | 'ask', amount: bigint, price: bigint) =>
  requiredCollateral(side, amount, price, i);

export interface TestMarket {
  market: MarketEngine;
  registry: OrderRegistry;
  /** Every `orders` event published, in order. */
  events: OrderEventBody[];
  /** An accepted order over a note of `noteAmount` (its own key and owner unless given), not booked. */
  order(
    side: 'bid' | 'ask',
    priceLimit: bigint,
    amount: bigint,
    noteAmount: bigint,
    extra?: Partial<EngineOrder>,
  ): EngineOrder;
  /** The same order, booked. */
  place(...args: Parameters<TestMarket['order']>): EngineOrder;
  /** Applies one command to the market; returns the matches it planned (a slot's settlement jobs). */
  apply(command: MarketCommand): JobState[];
  /** Runs the slot's expiry and auction; returns the matches it planned (settlement jobs). */
  slot(slot: bigint): JobState[];
  /** Reports planned jobs confirmed on the ledger, through the order effects. */
  confirm(jobs: JobState[]): void;
  /** The same, through effects that hold no live order (a match reconciled after a restart). */
  confirmAfterRestart(jobs: JobState[]): OrderEventBody[];
}

export function testMarket(instrument: Instrument = SOL_USDC): TestMarket {
  const registry = new OrderRegistry();
  const events = new VenueEventBus((err) => {
    throw err;
  });
  const published: OrderEventBody[] = [];
  events.subscribe((e) => {
    if (e.channel === 'orders') published.push(e.body);
  });
  let currentSlot = 0n;
  let batchId = 0n;
  let planned: JobState[] = [];
  const seam: SettlementSeam = {
    state: 'wired',
    pendingBatches: () => 0,
    submit(batch: SettlementBatch) {
      batch.matches.forEach((m, idx) => {
        const plan = planMatch(m, idx, {
          instrument,
          feeOwnerCommitment: FEE_OWNER,
          slot: currentSlot,
          lockExpirySlot: batch.lockExpirySlot,
        });
        planned.push({
          batchId: batch.batchId,
          marketId: batch.marketId,
          plan,
          stage: 'closing',
          outcome: 'confirmed',
          createdAtMs: 0,
          updatedAtMs: 0,
          lockSignatures: [],
          settleSignatures: [],
        });
      });
    },
  };
  const market = new MarketEngine(instrument, {
    registry,
    events,
    settlement: seam,
    settlementBufferSlots: 20n,
    now: () => 0,
    nextBatchId: () => ++batchId,
  });
  const effectsOver = (reg: OrderRegistry, bus: VenueEventBus) =>
    new SettlementEffects({
      registry: reg,
      events: bus,
      marketBySymbol: new Map([[instrument.symbol, market]]),
      now: () => 0,
    });
  const effects = effectsOver(registry, events);
  let n = 0;
  return {
    market,
    registry,
    events: published,
    order(side, priceLimit, amount, noteAmount, extra = {}) {
      n += 1;
      const order: EngineOrder = {
        seq: market.nextSeq(),
        orderId: n.toString(16).padStart(32, '0'),
        accountId: `acct-${n}`,
        tradingKey: `key-${n}`,
        ownerCommitment: hex32(1, n),
        side,
        orderType: 'limit',
        amount,
        priceLimit,
        minFillSize: 0n,
        expirySlot: currentSlot + 10_000n,
        arrivalSlot: currentSlot,
        arrivalTick: market.nextTick,
        noteAmount,
        status: 'pending',
        symbol: instrument.symbol,
        marketId: instrument.market_id,
        originalAmount: amount,
        filledQuantity: 0n,
        noteCommitment: hex32(2, n),
        noteInnerHash: hex32(3, n),
        nullifier: hex32(4, n),
        treeId: 0,
        viewingPubkey: hex32(5, n),
        merkleRoot: hex32(6, n),
        validInputProof: '11'.repeat(256),
        digestHex: hex32(7, n),
        signatureHex: '',
        lifecycle: 'pending',
        ...extra,
      };
      return order;
    },
    place(...args) {
      const order = this.order(...args);
      market.add(order);
      return order;
    },
    apply(command) {
      if (command.kind === 'slot') currentSlot = command.slot;
      planned = [];
      market.apply(command);
      return planned;
    },
    slot(slot) {
      return this.apply({ kind: 'slot', slot });
    },
    confirm(jobs) {
      for (const j of jobs) effects.confirmed(j);
    },
    confirmAfterRestart(jobs) {
      const bus = new VenueEventBus();
      const heard: OrderEventBody[] = [];
      bus.subscribe((e) => {
        if (e.channel === 'orders') heard.push(e.body);
      });
      const after = effectsOver(new OrderRegistry(), bus);
      for (const j of jobs) after.confirmed(j);
      return heard;
    },
  };
}
