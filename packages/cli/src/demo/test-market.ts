/** The demo market SOL-USDC as the venue serves it, and its units: the planner tests' fixture. */
import type { Instrument } from '@nightjar/protocol';

export const market: Instrument = {
  symbol: 'SOL-USDC',
  market_id: '11111111111111111111111111111111',
  base_mint: 'So11111111111111111111111111111111111111112',
  quote_mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  base_decimals: 9,
  quote_decimals: 6,
  price_scale: 1_000_000_000n,
  tick_size: 1_000n,
  min_order_size: 1_000_000n,
  fee_bps: 10n,
  trading_enabled: true,
};

export const SOL = (x: number) => BigInt(Math.round(x * 1e9));
export const USDC = (x: number) => BigInt(Math.round(x * 1e6));
