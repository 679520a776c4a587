/** The venue's markets, read from the ledger's market accounts at start-up. */
import type { Instrument } from '@nightjar/protocol';
import type { LedgerClient, MarketRecord } from '@nightjar/ledger';

export function instrumentOf(m: MarketRecord): Instrument {
  return {
    symbol: m.symbol,
    market_id: m.market_id,
    base_mint: m.base_mint,
    quote_mint: m.quote_mint,
    base_decimals: m.base_decimals,
    quote_decimals: m.quote_decimals,
    price_scale: BigInt(m.price_scale),
    tick_size: BigInt(m.tick_size),
    min_order_size: BigInt(m.min_order_size),
    fee_bps: BigInt(m.fee_bps),
    trading_enabled: m.trading_enabled,
  };
}

export class MarketRegistry {
  private readonly bySymbol = new Map<string, Instrument>();

  constructor(instruments: Instrument[]) {
    for (const i of instruments) this.bySymbol.set(i.symbol, i);
  }

  static async load(ledger: LedgerClient): Promise<MarketRegistry> {
    return new MarketRegistry((await ledger.getMarkets()).map(instrumentOf));
  }

  get(symbol: string): Instrument | undefined {
    return this.bySymbol.get(symbol);
  }

  list(): Instrument[] {
    return [...this.bySymbol.values()];
  }
}
