/**
 * A planned-stop drain (`/admin/drain`): while started, new trading pauses; it is drained once no
 * order is open and no settlement is in flight, and an operator may then stop the venue quietly.
 */
import type { DrainStatusResponse } from '@nightjar/protocol';
import type { SettlementSeam } from '../settlement/types.js';

export interface DrainDeps {
  now(): number;
  /** Orders resting or awaiting settlement. */
  openOrders(): number;
  settlement: Pick<SettlementSeam, 'pendingBatches' | 'inFlightMatches'>;
}

export class Drain {
  private startedAtMs: number | undefined;

  constructor(private readonly deps: DrainDeps) {}

  /** True from `begin` until `cancel`. */
  get active(): boolean {
    return this.startedAtMs !== undefined;
  }

  /** Starts draining; a second call keeps the first start time. */
  begin(): DrainStatusResponse {
    this.startedAtMs ??= this.deps.now();
    return this.status();
  }

  cancel(): DrainStatusResponse {
    this.startedAtMs = undefined;
    return this.status();
  }

  status(): DrainStatusResponse {
    const { settlement } = this.deps;
    const openOrders = this.deps.openOrders();
    const inFlight = settlement.inFlightMatches();
    return {
      state:
        this.startedAtMs === undefined ? 'idle' : openOrders === 0 && inFlight === 0 ? 'drained' : 'draining',
      ...(this.startedAtMs === undefined ? {} : { started_at_ms: BigInt(this.startedAtMs) }),
      open_orders: BigInt(openOrders),
      pending_settlements: BigInt(settlement.pendingBatches()),
      in_flight_settlements: BigInt(inFlight),
      // Stopping with settlements in flight is recoverable (the journal), but a quiet stop is cleaner.
      safe_to_stop: inFlight === 0,
    };
  }
}
