import { describe, expect, it } from 'vitest';
import type { Instrument } from '@nightjar/protocol';
import { listInstruments, staticDirectory } from './market-directory.js';
import { MarketRegistry } from './markets.js';

const market = (symbol: string): Instrument => ({
  symbol,
  market_id: '11111111111111111111111111111111',
  base_mint: '11111111111111111111111111111111',
  quote_mint: '11111111111111111111111111111111',
  base_decimals: 8,
  quote_decimals: 6,
  price_scale: 100_000_000n,
  tick_size: 1n,
  min_order_size: 1n,
  fee_bps: 10n,
  trading_enabled: true,
});

describe('markets on several engines', () => {
  const all = [market('BTC-USD'), market('ETH-USD'), market('SOL-USD')];

  it('lists its own markets at its own URL and a peer market at the peer URL; an unserved one not at all', async () => {
    const peers = await staticDirectory([
      { symbol: 'ETH-USD', base_url: 'https://b.example:9443' },
      { symbol: 'BTC-USD', base_url: 'https://stale.example' },
    ]).peers();
    const listed = listInstruments(all, new Set(['BTC-USD']), 'https://a.example:8443', peers);
    expect(listed.map((i) => [i.symbol, i.base_url])).toEqual([
      ['BTC-USD', 'https://a.example:8443'],
      ['ETH-USD', 'https://b.example:9443'],
    ]);
  });

  it('books only the markets the configuration names, and refuses a market the ledger lacks', () => {
    const registry = new MarketRegistry(all, ['ETH-USD']);
    expect(registry.list().map((i) => i.symbol)).toEqual(['ETH-USD']);
    expect(registry.get('BTC-USD')).toBeUndefined();
    expect(registry.all()).toHaveLength(3);
    expect(new MarketRegistry(all).list()).toHaveLength(3);
    expect(() => new MarketRegistry(all, ['DOGE-USD'])).toThrow(/no such market on the ledger: DOGE-USD/);
  });
});
