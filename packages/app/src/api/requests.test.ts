import { describe, expect, it } from 'vitest';
import { cancelAllRequest, orderRequest } from './requests.js';

const base = { type: 'limit', amount: '1', price: '100' };

describe('an order request in the one vocabulary', () => {
  it("reads the old words (market, buy/sell, expires_in_s) as the spec's", () => {
    const spec = orderRequest.parse({ ...base, symbol: 'SOL-USDC', side: 'ask', expiry_seconds: 60 });
    const old = orderRequest.parse({ ...base, market: 'SOL-USDC', side: 'sell', expires_in_s: 60 });
    expect(old).toEqual(spec);
    expect(spec).toMatchObject({ symbol: 'SOL-USDC', side: 'ask', expiry_seconds: 60 });
    expect(orderRequest.parse({ ...base, symbol: 'SOL-USDC', side: 'buy' }).side).toBe('bid');
  });

  it('refuses a word and its alias that disagree, a missing symbol and an unknown side', () => {
    expect(() =>
      orderRequest.parse({ ...base, symbol: 'SOL-USDC', market: 'ETH-USDC', side: 'bid' }),
    ).toThrow(/`symbol` and `market`/);
    expect(() => orderRequest.parse({ ...base, side: 'bid' })).toThrow(/`symbol` is required/);
    expect(() => orderRequest.parse({ ...base, symbol: 'SOL-USDC', side: 'long' })).toThrow(/bid or ask/);
  });

  it('documents both names in its schema, requiring neither alone', () => {
    const schema = orderRequest.schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['symbol', 'market', 'expiry_seconds', 'expires_in_s']),
    );
    expect(schema.required).not.toContain('symbol');
    expect(schema.required).toEqual(expect.arrayContaining(['side', 'amount', 'price']));
  });
});

describe('a cancel-all request', () => {
  it('reads `market` as `symbol`, refuses the two disagreeing, and takes no body as every market', () => {
    expect(cancelAllRequest.parse({ market: 'SOL-USDC' })).toEqual({ symbol: 'SOL-USDC' });
    expect(cancelAllRequest.parse({ symbol: 'SOL-USDC' })).toEqual({ symbol: 'SOL-USDC' });
    expect(() => cancelAllRequest.parse({ symbol: 'SOL-USDC', market: 'ETH-USDC' })).toThrow(
      /`symbol` and `market`/,
    );
    expect(cancelAllRequest.parse(undefined)).toEqual({});
  });
});
