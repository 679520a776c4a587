import { describe, expect, it } from 'vitest';
import { instrumentFromRecord, type InstrumentRecord } from './instrument.js';
import { instrumentCodec } from './responses.js';
import { FieldError } from './schema.js';

const record: InstrumentRecord = {
  symbol: 'SOL-USDC',
  market_id: '11111111111111111111111111111111',
  base_mint: 'So11111111111111111111111111111111111111112',
  quote_mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  base_decimals: 9,
  quote_decimals: 6,
  price_scale: '1000000000',
  tick_size: '1000',
  min_order_size: '1000000',
  fee_bps: '10',
  trading_enabled: true,
};

describe('instrumentFromRecord', () => {
  it('reads the ledger market record into the instrument the venue serves', () => {
    const instrument = instrumentFromRecord(record);
    expect(instrument).toEqual({
      ...record,
      price_scale: 1_000_000_000n,
      tick_size: 1_000n,
      min_order_size: 1_000_000n,
      fee_bps: 10n,
    });
    expect(instrumentCodec.parse(instrument)).toEqual(instrument);
  });

  it('refuses a record the instrument codec refuses', () => {
    expect(() => instrumentFromRecord({ ...record, tick_size: '-1' })).toThrow(FieldError);
    expect(() => instrumentFromRecord({ ...record, base_decimals: 31 })).toThrow(FieldError);
    expect(() => instrumentFromRecord({ ...record, extra: 1 } as InstrumentRecord)).toThrow(FieldError);
  });
});
