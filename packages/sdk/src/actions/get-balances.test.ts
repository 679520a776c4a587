/**
 * `getBalances`: the wallet's notes summed per mint (free, backing orders, settling, not landed),
 * or per asset symbol with human units; it syncs from the ledger first unless `sync: false`.
 */
import { FAKE_SOL, FAKE_USDC, fakeClient, giveNote } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { getBalances } from './get-balances.js';

/** A wallet with 12.5 USDC free, 100 USDC backing an order, and 1 USDC not landed. */
function holdings() {
  const fake = fakeClient();
  const { wallet } = fake;
  giveNote(wallet, FAKE_USDC, 12_500_000n, 0);
  const backing = giveNote(wallet, FAKE_USDC, 100_000_000n, 1);
  wallet.trackOrder({
    orderId: 'b0'.repeat(16),
    symbol: 'SOL-USDC',
    side: 'bid',
    noteCommitment: backing.commitment,
    status: 'pending',
    baseMint: FAKE_SOL,
    quoteMint: FAKE_USDC,
    filledQuantity: 0n,
  });
  const { note } = wallet.depositNote(wallet.depositCount++, FAKE_USDC, 1_000_000n);
  wallet.addNote({ ...note, leafIndex: undefined, state: 'free' });
  return fake;
}

describe('getBalances', () => {
  it('by mint, in atomic units, from the wallet alone with sync: false', async () => {
    const { client, requests } = holdings();
    expect(await getBalances(client, { sync: false })).toEqual({
      [FAKE_USDC]: {
        available: 12_500_000n,
        locked: 100_000_000n,
        pendingSettlement: 0n,
        pending: 1_000_000n,
      },
    });
    expect(requests).toEqual([]);
  });

  it('by symbol: every asset the venue trades, zero where the wallet holds none, human units beside', async () => {
    const { client } = holdings();
    const b = await getBalances(client, { sync: false, by: 'symbol' });
    expect(Object.keys(b).sort()).toEqual(['SOL', 'USDC']);
    expect(b.USDC).toMatchObject({ mint: FAKE_USDC, decimals: 6, available: 12_500_000n });
    expect(b.USDC?.formatted).toEqual({
      available: '12.5',
      locked: '100',
      pendingSettlement: '0',
      pending: '1',
    });
    expect(b.SOL).toMatchObject({ available: 0n, formatted: { available: '0' } });
  });

  it('syncs from the ledger first by default (a ledger that fails fails the read)', async () => {
    const { client } = holdings();
    await expect(getBalances(client)).rejects.toMatchObject({
      message: expect.stringContaining('has no ledger (getNonce)'),
    });
  });
});
