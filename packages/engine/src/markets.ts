/** The venue's markets, read from the ledger's market accounts at start-up. */
import { instrumentFromRecord, type Instrument } from '@nightjar/protocol';
import type { LedgerClient } from '@nightjar/ledger';

export class MarketRegistry {
  private readonly bySymbol = new Map<string, Instrument>();

  constructor(instruments: Instrument[]) {
    for (const i of instruments) this.bySymbol.set(i.symbol, i);
  }

  static async load(ledger: LedgerClient): Promise<MarketRegistry> {
    return new MarketRegistry((await ledger.getMarkets()).map(instrumentFromRecord));
  }

  get(symbol: string): Instrument | undefined {
    return this.bySymbol.get(symbol);
  }

  list(): Instrument[] {
    return [...this.bySymbol.values()];
  }
}
