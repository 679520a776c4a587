/** `getInstruments`: every market from `GET /instruments`, u64 fields as bigints; refusals stay typed. */
import { FAKE_MARKET, FAKE_SOL, FAKE_USDC, fakeClient, refusing } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { getInstruments } from './get-instruments.js';

describe('getInstruments', () => {
  it('lists every market with its mints, decimals and scale parsed exactly', async () => {
    const eth = { ...FAKE_MARKET, symbol: 'ETH-USDC', base_decimals: 8, trading_enabled: false };
    const { client, requests } = fakeClient({ routes: { 'GET /instruments': () => [FAKE_MARKET, eth] } });
    const markets = await getInstruments(client);
    expect(markets.map((m) => m.symbol)).toEqual(['SOL-USDC', 'ETH-USDC']);
    expect(markets[0]).toMatchObject({
      base_mint: FAKE_SOL,
      quote_mint: FAKE_USDC,
      price_scale: 1_000_000_000n,
      tick_size: 1_000n,
      fee_bps: 10n,
      trading_enabled: true,
    });
    expect(markets[1]).toMatchObject({ base_decimals: 8, trading_enabled: false });
    expect(requests).toMatchObject([{ path: '/instruments', auth: false }]);
  });

  it('passes the venue’s typed error through (1401: rate limited)', async () => {
    const { client } = fakeClient({
      routes: {
        'GET /instruments': refusing(1401, 429, 'slow down', { retryAfterSeconds: 1 }),
      },
    });
    const err = await getInstruments(client).catch((e: unknown) => e);
    expect(isNightjarError(err, 1401)).toBe(true);
  });
});
