/** `getTime`: the venue's slot and clock from `GET /time`, unauthenticated; refusals stay typed. */
import { fakeClient, refusing } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { getTime } from './get-time.js';

describe('getTime', () => {
  it('returns the slot as a bigint and the clock in Unix ms, without the bearer', async () => {
    const { client, requests } = fakeClient({
      routes: { 'GET /time': () => ({ slot: 4242, unix_ms: 1_700_000_000_123 }) },
    });
    expect(await getTime(client)).toEqual({ slot: 4242n, unixMs: 1_700_000_000_123 });
    expect(requests).toMatchObject([{ method: 'GET', path: '/time', auth: false }]);
  });

  it('passes the venue’s typed error through (5001: unavailable)', async () => {
    const { client } = fakeClient({
      routes: {
        'GET /time': refusing(5001, 503, 'the engine is restarting'),
      },
    });
    const err = await getTime(client).catch((e: unknown) => e);
    expect(isNightjarError(err, 5001)).toBe(true);
  });
});
