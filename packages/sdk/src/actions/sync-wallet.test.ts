/**
 * `syncWallet` against the in-process dev ledger: a wallet made from the seed alone gets its
 * deposits back and never reuses a deposit index; `refreshOrders` re-reads the tracked live orders.
 */
import { randomBytes } from 'node:crypto';
import {
  FAKE_SOL,
  FAKE_USDC,
  depositNotes,
  fakeClient,
  useFakeLedger,
  orderStatusBody,
} from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { createWallet } from '../wallet/wallet.js';
import { syncWallet } from './sync-wallet.js';

const ledger = useFakeLedger();

describe('syncWallet', () => {
  it('recovers every deposit from the seed alone, and the deposit counter with them', async () => {
    const seed = Uint8Array.from(randomBytes(32));
    const first = fakeClient({ ledger: ledger(), wallet: createWallet({ seed }) });
    const deposited = await depositNotes(first, ledger(), FAKE_USDC, [1_000_000n, 2_000_000n]);

    const again = fakeClient({ ledger: ledger(), wallet: createWallet({ seed }) });
    const r = await syncWallet(again.client);
    expect(r.notes).toBe(2);
    expect(r.newLeaves).toBeGreaterThanOrEqual(2);
    expect(again.wallet.depositCount).toBeGreaterThanOrEqual(2);
    expect(
      again.wallet
        .freeNotes(FAKE_USDC)
        .map((n) => n.commitment)
        .sort(),
    ).toEqual(deposited.map((n) => n.commitment).sort());

    const quiet = await syncWallet(again.client);
    expect(quiet).toMatchObject({ newLeaves: 0, memosStored: 0, notes: 2 });
  });

  it('with refreshOrders, re-reads each live order; a failed read still fails the sync', async () => {
    const orderId = 'f0'.repeat(16);
    const fake = fakeClient({
      ledger: ledger(),
      routes: {
        'GET /orders/:id': ({ params }) =>
          orderStatusBody({
            order_id: params.id,
            side: 'ask',
            status: 'pending_settlement',
            filled_quantity: 1_000_000_000,
          }),
      },
    });
    fake.wallet.trackOrder({
      orderId,
      symbol: 'SOL-USDC',
      side: 'ask',
      noteCommitment: '0e'.repeat(32),
      status: 'pending',
      baseMint: FAKE_SOL,
      quoteMint: FAKE_USDC,
      filledQuantity: 0n,
    });
    await syncWallet(fake.client);
    expect(fake.requests.filter((q) => q.path.startsWith('/orders/'))).toEqual([]);
    await syncWallet(fake.client, { refreshOrders: true });
    expect(fake.wallet.orders.get(orderId)).toMatchObject({
      status: 'pending_settlement',
      filledQuantity: 1_000_000_000n,
    });
    await expect(syncWallet(fakeClient().client)).rejects.toMatchObject({
      message: expect.stringContaining('has no ledger'),
    });
  });
});
