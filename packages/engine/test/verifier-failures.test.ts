import { VerifierCapacityError, VerifierClosedError } from '@nightjar/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVenue, USDC, type Note, type TestVenue, type Trader } from '@nightjar/testkit';

describe('when proof verification cannot answer', () => {
  let v: TestVenue;
  let token: string;
  let trader: Trader;
  let note: Note;
  beforeAll(async () => {
    // 0xcc…: the batcher's queue is full; 0xdd…: the verifier is gone.
    v = await startTestVenue({
      verifyInputProof: async (proof) => {
        if (proof[0] === 0xcc) throw new VerifierCapacityError('queue full');
        if (proof[0] === 0xdd) throw new VerifierClosedError();
        return true;
      },
    });
    ({ token } = await v.newAccount());
    trader = v.trader();
    note = await trader.deposit(USDC, 10n ** 12n);
  });
  afterAll(async () => {
    await v.close();
  });

  it('a full verification queue is 429 1401 with Retry-After', async () => {
    const r = await v.client.send('/orders', {
      token,
      body: trader.order(note, { valid_input_proof: 'cc'.repeat(256) }),
    });
    expect([r.status, r.body.code, r.headers['retry-after']]).toEqual([429, 1401, '1']);
  });

  it('a verifier that is gone is 503 5001, not a 500', async () => {
    const r = await v.client.send('/orders', {
      token,
      body: trader.order(note, { valid_input_proof: 'dd'.repeat(256) }),
    });
    expect([r.status, r.body.code]).toEqual([503, 5001]);
    expect((await v.client.send('/orders', { token, body: trader.order(note) })).status).toBe(202);
  });
});
