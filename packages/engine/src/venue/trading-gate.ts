/**
 * Whether new trading (place, modify) is open: matching must be running, no drain started and the
 * ledger reachable. Intake asks it before every order; `/system/status` reports it.
 */
import type { Drain } from './drain.js';

export interface TradingGateDeps {
  drain: Pick<Drain, 'active'>;
  chain: { readonly available: boolean };
}

export class TradingGate {
  private running = true;

  constructor(private readonly deps: TradingGateDeps) {}

  get matching(): boolean {
    return this.running;
  }

  /** The engine is closing: the books take no new trading. */
  stopMatching(): void {
    this.running = false;
  }

  /** Why new trading is refused now, or undefined when it is open. */
  pausedReason(): string | undefined {
    if (!this.running) return 'matching is stopped';
    if (this.deps.drain.active) return 'the venue is draining for a planned stop';
    if (!this.deps.chain.available) return 'the ledger is unavailable';
    return undefined;
  }
}
