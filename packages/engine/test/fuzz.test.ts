import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '@nightjar/protocol';
import { startTestVenue, USDC, type TestVenue, type Trader, type Note } from '@nightjar/testkit';

describe('POST /orders under random input', () => {
  let v: TestVenue;
  let token: string;
  let trader: Trader;
  let note: Note;
  beforeAll(async () => {
    v = await startTestVenue({ orderRateLimit: { capacity: 100_000, refillPerSecond: 100_000 } });
    ({ token } = await v.newAccount());
    trader = v.trader();
    note = await trader.deposit(USDC, 10n ** 12n);
  });
  afterAll(async () => {
    await v.close();
  });

  it('never answers 500 or crashes: every reply is a spec code with its status, or a 202', async () => {
    const valid = trader.order(note);
    const keys = Object.keys(valid);
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 }),
    );
    const body = fc.oneof(
      fc.json().map((text) => ({ raw: text })),
      fc.tuple(fc.constantFrom(...keys, 'extra'), value).map(([k, val]) => ({ obj: { ...valid, [k]: val } })),
      fc.string({ maxLength: 200 }).map((text) => ({ raw: text })),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const r =
          'raw' in b
            ? await v.client.send('/orders', { token, rawBody: b.raw })
            : await v.client.send('/orders', { token, body: b.obj });
        expect(r.status).not.toBe(500);
        if (r.status !== 202) {
          const entry = ERROR_CATALOGUE[r.body.code as keyof typeof ERROR_CATALOGUE];
          expect(entry?.status).toBe(r.status);
          expect(r.headers['x-request-id']).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
    expect((await v.client.send('/health')).status).toBe(200);
  }, 120_000);
});
