/** `/system/status`: the venue's trading-relevant readiness in one read. */
import type { SystemStatusResponse } from '@nightjar/protocol';
import type { SettlementSeam } from '../settlement/types.js';
import type { Drain } from './drain.js';
import type { TradingGate } from './trading-gate.js';

export interface SystemStatusDeps {
  gate: Pick<TradingGate, 'matching' | 'pausedReason'>;
  drain: Pick<Drain, 'active'>;
  settlement: Pick<SettlementSeam, 'state'>;
  chain: { readonly available: boolean; readonly slot: number };
}

export function systemStatusOf({ gate, drain, settlement, chain }: SystemStatusDeps): SystemStatusResponse {
  return {
    matching: gate.matching ? 'running' : 'stopped',
    settlement: settlement.state,
    ledger: chain.available ? 'connected' : 'unavailable',
    trading: gate.pausedReason() === undefined ? 'open' : 'paused',
    draining: drain.active,
    slot: BigInt(chain.slot),
  };
}
