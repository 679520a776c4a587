/**
 * `placeOrder`: builds, signs under the send lock, sends `POST /orders` and tracks the order open;
 * the venue's refusals stay typed and leave no order tracked and no note reserved.
 */
import { requiredCollateral } from '@nightjar/protocol';
import { FAKE_MARKET, FAKE_SOL, fakeClient, giveNote, refusing } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { isNightjarError } from '../core/errors/index.js';
import { placeOrder } from './place-order.js';

/** An ask of 2 SOL at 151 (collateral: the base itself). */
const ASK = { symbol: 'SOL-USDC', side: 'ask', amount: '2', price: '151' } as const;
const NEED = requiredCollateral('ask', 2_000_000_000n, 151_000_000n, FAKE_MARKET);

describe('placeOrder', () => {
  it('sends the signed order and tracks it open; two orders take increasing nonces', async () => {
    const { client, requests, wallet } = fakeClient();
    const a = giveNote(wallet, FAKE_SOL, NEED, 0);
    const b = giveNote(wallet, FAKE_SOL, NEED, 1);
    const first = await placeOrder(client, { ...ASK, orderId: 'a1'.repeat(16) });
    expect(first).toMatchObject({ orderId: 'a1'.repeat(16), status: 'accepted', arrivalSlot: 1001n });
    expect(first.split).toBeUndefined();
    const second = await placeOrder(client, ASK);
    expect([first.noteCommitment, second.noteCommitment].sort()).toEqual([a.commitment, b.commitment].sort());
    expect(wallet.orders.get(first.orderId)).toMatchObject({
      status: 'pending',
      side: 'ask',
      baseMint: FAKE_SOL,
      noteCommitment: first.noteCommitment,
      filledQuantity: 0n,
    });
    const posted = requests
      .filter((r) => r.method === 'POST')
      .map((r) => r.body as { arrival_nonce: bigint });
    expect(posted).toHaveLength(2);
    expect(BigInt(posted[1]!.arrival_nonce)).toBeGreaterThan(BigInt(posted[0]!.arrival_nonce));
    expect(wallet.reserved.size).toBe(0);
  });

  it('a refusal (1003: insufficient collateral) is typed; nothing tracked, the note free again', async () => {
    const { client, wallet } = fakeClient({
      routes: {
        'POST /orders': refusing(1003, 400, 'collateral below the requirement'),
      },
    });
    giveNote(wallet, FAKE_SOL, NEED, 0);
    const err = await placeOrder(client, ASK).catch((e: unknown) => e);
    expect(isNightjarError(err, 1003)).toBe(true);
    expect(wallet.orders.size).toBe(0);
    expect(wallet.reserved.size).toBe(0);
    expect(wallet.freeNotes(FAKE_SOL)).toHaveLength(1);
  });
});
