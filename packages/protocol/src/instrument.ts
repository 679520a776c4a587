/** Market metadata (DESIGN.md section 4) as the venue serves it on `/instruments`. */
export interface Instrument {
  symbol: string;
  market_id: string;
  base_mint: string;
  quote_mint: string;
  base_decimals: number;
  quote_decimals: number;
  price_scale: bigint;
  tick_size: bigint;
  min_order_size: bigint;
  fee_bps: bigint;
  trading_enabled: boolean;
}
