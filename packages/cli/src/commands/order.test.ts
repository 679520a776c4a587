import { describe, expect, it } from 'vitest';
import type { Instrument } from '@nightjar/protocol';
import type { GetOrderReturnType } from '@nightjar/sdk';
import { FAKE_MARKET } from '@nightjar/testkit/sdk-fakes';
import { aliasedOption, UsageError } from '../args.js';
import { describeOrder, orderLine, orderParams } from './order.js';

/** The dev venue's SOL-USDC, as the SDK fakes answer it (9 and 6 decimals). */
const SOL_USDC: Instrument = FAKE_MARKET;
const client = { instrument: async () => SOL_USDC };

describe('order flags in the one vocabulary', () => {
  it('reads --side buy and sell as bid and ask, and the spec words as themselves', () => {
    expect(orderParams({ side: 'buy', amount: '1' }).side).toBe('bid');
    expect(orderParams({ side: 'sell', amount: '1' }).side).toBe('ask');
    expect(orderParams({ side: 'ask', amount: '1' }).side).toBe('ask');
    expect(() => orderParams({ side: 'long', amount: '1' })).toThrow(UsageError);
  });

  it('reads --market as --symbol', () => {
    expect(aliasedOption({ market: 'ETH-USDC' }, 'symbol', 'market')).toBe('ETH-USDC');
    expect(aliasedOption({ symbol: 'SOL-USDC' }, 'symbol', 'market')).toBe('SOL-USDC');
    expect(aliasedOption({ symbol: 'SOL-USDC', market: 'SOL-USDC' }, 'symbol', 'market')).toBe('SOL-USDC');
    expect(aliasedOption({}, 'symbol', 'market')).toBeUndefined();
    expect(() => aliasedOption({ symbol: 'SOL-USDC', market: 'ETH-USDC' }, 'symbol', 'market')).toThrow(
      UsageError,
    );
  });

  it('reads --expires-in as --expiry-seconds; the two must agree', () => {
    expect(orderParams({ side: 'bid', amount: '1', 'expires-in': '60' }).expiry).toEqual({ seconds: 60 });
    expect(orderParams({ side: 'bid', amount: '1', 'expiry-seconds': '60' }).expiry).toEqual({ seconds: 60 });
    expect(() =>
      orderParams({ side: 'bid', amount: '1', 'expiry-seconds': '60', 'expires-in': '90' }),
    ).toThrow(/--expiry-seconds and --expires-in/);
  });
});

describe('an order as the CLI prints it', () => {
  it("prints the wallet's state with its label, not the venue's empty, and the side with its label", async () => {
    const filled = {
      order_id: 'ab'.repeat(16),
      symbol: 'SOL-USDC',
      side: 'bid',
      order_type: 'limit',
      status: 'empty',
      state: 'fully_filled',
      amount: 1_000_000_000n,
      filled_quantity: 1_000_000_000n,
      price_limit: 150_000_000n,
      expiry_slot: 900n,
      arrival_slot: 100n,
    } as unknown as GetOrderReturnType;
    const d = await describeOrder(client, filled);
    expect(d).toMatchObject({
      side: 'bid',
      side_label: 'Buy',
      status: 'fully_filled',
      status_label: 'Filled',
      venue_status: 'empty',
      filled: '1',
    });
    expect(orderLine(d)).toMatch(/ bid \(Buy\) 1 @ 150 +fully_filled \(Filled\) +filled 1$/);
  });
});
