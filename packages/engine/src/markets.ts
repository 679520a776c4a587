/**
 * The venue's markets, read from the ledger's market accounts at start-up, and the ones this
 * engine is the single writer of (`get` and `list`: every other module sees only those).
 */
import { instrumentFromRecord, type Instrument } from '@nightjar/protocol';
import type { LedgerClient } from '@nightjar/ledger';

export class MarketRegistry {
  private readonly bySymbol = new Map<string, Instrument>();
  private readonly everyMarket: readonly Instrument[];
  /** The symbols this engine writes. */
  readonly own: ReadonlySet<string>;

  /** `own`: the symbols this engine serves; default all of `instruments`. */
  constructor(instruments: Instrument[], own?: readonly string[]) {
    this.everyMarket = [...instruments];
    const known = new Set(instruments.map((i) => i.symbol));
    const unknown = (own ?? []).filter((s) => !known.has(s));
    if (unknown.length > 0) throw new Error(`no such market on the ledger: ${unknown.join(', ')}`);
    this.own = new Set(own ?? known);
    for (const i of instruments) if (this.own.has(i.symbol)) this.bySymbol.set(i.symbol, i);
  }

  static async load(ledger: LedgerClient, own?: readonly string[]): Promise<MarketRegistry> {
    return new MarketRegistry((await ledger.getMarkets()).map(instrumentFromRecord), own);
  }

  get(symbol: string): Instrument | undefined {
    return this.bySymbol.get(symbol);
  }

  /** The markets this engine serves. */
  list(): Instrument[] {
    return [...this.bySymbol.values()];
  }

  /** Every market on the ledger, this engine's or not. */
  all(): readonly Instrument[] {
    return this.everyMarket;
  }
}
