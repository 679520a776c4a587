/**
 * Start-up: order intake over the markets' writers, with the account buckets, the trading gate,
 * the nullifier mirror's note states and the lock-failure throttle's cool-down (in seconds).
 */
import { RATE_LIMIT } from '@nightjar/protocol';
import { DEFAULT_SLOT_MS } from '@nightjar/ledger';
import type { EngineOptions } from '../engine-options.js';
import type { AccountLimiter } from '../limits/account-limiter.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { Intake, type IntakeDeps } from '../orders/intake.js';
import type { LockFailureThrottle } from '../orders/lock-failure-throttle.js';
import type { MarketDirectory } from '../market-directory.js';
import type { TradingGate } from '../venue/trading-gate.js';
import type { LedgerViews } from './ledger-views.js';

export type IntakeBootDeps = Pick<
  IntakeDeps,
  'bootSessionId' | 'settlementBufferSlots' | 'markets' | 'registry' | 'checkOrder'
> & {
  views: LedgerViews;
  gate: TradingGate;
  lockFailures: LockFailureThrottle;
  now(): number;
  sharedOrderLimiter?: AccountLimiter | undefined;
  directory: MarketDirectory | undefined;
};

export function createIntake(options: EngineOptions, d: IntakeBootDeps): Intake {
  const { chain, trees, notes } = d.views;
  // With a shared store every engine takes from the same bucket (an account cannot multiply its
  // allowance by spreading orders over engines).
  const rateLimiter =
    d.sharedOrderLimiter ??
    new RateLimiter({
      ...(options.orderRateLimit ?? {
        capacity: RATE_LIMIT.capacity,
        refillPerSecond: RATE_LIMIT.refillPerSecond,
      }),
      now: d.now,
    });
  return new Intake({
    bootSessionId: d.bootSessionId,
    currentSlot: () => BigInt(chain.slot),
    numTrees: () => trees.numTrees,
    settlementBufferSlots: d.settlementBufferSlots,
    markets: d.markets,
    registry: d.registry,
    isRecentRoot: (t, root) => trees.isRecentRoot(t, root),
    checkOrder: d.checkOrder,
    rateLimiter,
    tradingPausedReason: () => d.gate.pausedReason(),
    noteState: (nullifier) => ({
      state: notes.state(nullifier, chain.slot),
      lockedUntilSlot: notes.lockedUntil(nullifier, chain.slot),
    }),
    servedAt: async (symbol) => (await d.directory?.peers())?.find((p) => p.symbol === symbol)?.base_url,
    lockFailureCoolDown: (accountId) => {
      const slots = d.lockFailures.coolingDown(accountId, chain.slot);
      return slots === undefined ? undefined : (slots * DEFAULT_SLOT_MS) / 1000;
    },
  });
}
