/** The venue's markets, fetched once per connection: the assets and instruments orders name. */
import { MAX_ORDER_LIFETIME_SLOTS, SETTLEMENT_BUFFER_SLOTS } from '@nightjar/protocol';
import { formatPrice, formatUnits, getInstruments, type Client, type Instrument } from '@nightjar/sdk';
import type { MarketView } from '../api-types.js';
import { AppError } from '../errors.js';

/** An asset of the venue's markets. */
export interface Asset {
  symbol: string;
  mint: string;
  decimals: number;
}

/** A market's two assets, named by its symbol (`SOL-USDC`). */
function assetsOf(i: Instrument): [Asset, Asset] {
  const [base = i.base_mint, quote = i.quote_mint] = i.symbol.split('-');
  return [
    { symbol: base, mint: i.base_mint, decimals: i.base_decimals },
    { symbol: quote, mint: i.quote_mint, decimals: i.quote_decimals },
  ];
}

export class Markets {
  private instruments: Instrument[] | undefined;

  /** `loaded` runs each time the list is fetched (the app's old fills need the decimals). */
  constructor(private readonly loaded: (instruments: Instrument[]) => void) {}

  /** A new connection: the list is fetched again. */
  reset(): void {
    this.instruments = undefined;
  }

  async list(client: Client): Promise<Instrument[]> {
    if (!this.instruments) {
      this.instruments = await getInstruments(client);
      this.loaded(this.instruments);
    }
    return this.instruments;
  }

  /** The instrument of `symbol` if the list was fetched already. */
  known(symbol: string): Instrument | undefined {
    return this.instruments?.find((i) => i.symbol === symbol);
  }

  async assets(client: Client): Promise<Asset[]> {
    const byMint = new Map<string, Asset>();
    for (const a of (await this.list(client)).flatMap(assetsOf)) byMint.set(a.mint, a);
    return [...byMint.values()];
  }

  /** The asset a request names by symbol (any case) or mint. */
  async asset(client: Client, name: string): Promise<Asset> {
    const all = await this.assets(client);
    const found = all.find((a) => a.mint === name || a.symbol.toUpperCase() === name.toUpperCase());
    if (!found)
      throw new AppError(
        400,
        'UNKNOWN_ASSET',
        `unknown asset ${name}`,
        `one of ${all.map((a) => a.symbol).join(', ')}`,
      );
    return found;
  }

  async instrument(client: Client, symbol: string): Promise<Instrument> {
    const all = await this.list(client);
    const inst = all.find((i) => i.symbol === symbol);
    if (!inst) {
      const known = all.map((i) => i.symbol).join(', ');
      throw new AppError(404, 'UNKNOWN_MARKET', `unknown market ${symbol}`, `one of ${known}`);
    }
    return inst;
  }

  async views(client: Client): Promise<MarketView[]> {
    const slotMs = client.slotMs;
    return (await this.list(client)).map((i) => {
      const [base, quote] = assetsOf(i);
      return {
        symbol: i.symbol,
        base,
        quote,
        tick_size: formatPrice(i.tick_size, i),
        min_size: formatUnits(i.min_order_size, i.base_decimals),
        min_expiry_s: Math.ceil((Number(SETTLEMENT_BUFFER_SLOTS + 1n) * slotMs) / 1000),
        max_expiry_s: Math.floor((Number(MAX_ORDER_LIFETIME_SLOTS) * slotMs) / 1000),
        fee_bps: Number(i.fee_bps),
        trading_enabled: i.trading_enabled,
      };
    });
  }
}
