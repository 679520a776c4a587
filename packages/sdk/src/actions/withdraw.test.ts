/**
 * `withdraw` against the in-process dev ledger: one transaction pays any amount of the smallest
 * covering note to the recipient, signed by a one-time key, the rest back as a change note; the
 * recipient, amount and note are checked before anything is proved.
 */
import { randomBytes } from 'node:crypto';
import { addressToBase58 } from '@nightjar/protocol';
import { FAKE_USDC, depositNotes, fakeClient, useFakeLedger } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { withdraw } from './withdraw.js';

const ledger = useFakeLedger();

const fresh = () => addressToBase58(randomBytes(32));

describe('withdraw', () => {
  it('pays part of the smallest covering note from a one-time key; the change comes back free', async () => {
    const fake = fakeClient({ ledger: ledger() });
    const [, medium] = await depositNotes(fake, ledger(), FAKE_USDC, [3_000_000n, 10_000_000n, 50_000_000n]);
    const recipient = fresh();
    const r = await withdraw(fake.client, { asset: 'USDC', amount: '4.5', recipient });
    expect(r).toMatchObject({
      amount: 4_500_000n,
      recipient,
      note: { commitment: medium!.commitment, state: 'spent' },
    });
    expect(r.signer).not.toBe(fake.wallet.keys.funding.address);
    expect(r.change).toMatchObject({ amount: 5_500_000n, state: 'free' });
    expect(fake.wallet.freeNotes(FAKE_USDC).map((n) => n.amount)).toEqual([
      3_000_000n,
      5_500_000n,
      50_000_000n,
    ]);
    expect(fake.wallet.reserved.size).toBe(0);

    const whole = await withdraw(fake.client, { commitment: r.change!.commitment, recipient: fresh() });
    expect(whole.amount).toBe(5_500_000n);
    expect(whole.change).toBeUndefined();
  });

  it('refuses a funding address unless linked, a missing recipient, and amounts no note covers', async () => {
    const fake = fakeClient({ ledger: ledger() });
    const [note] = await depositNotes(fake, ledger(), FAKE_USDC, [2_000_000n]);
    const funding = fake.wallet.keys.funding.address;
    await expect(
      withdraw(fake.client, { asset: 'USDC', amount: '1', recipient: funding }),
    ).rejects.toMatchObject({ codeName: 'LINKS_FUNDING_ADDRESS', context: { recipient: funding } });
    await expect(withdraw(fake.client, { asset: 'USDC', amount: '1', recipient: '' })).rejects.toMatchObject({
      message: 'withdraw needs a recipient: the ledger address (Base58) to pay',
    });
    await expect(
      withdraw(fake.client, { asset: 'USDC', amount: '3', recipient: fresh() }),
    ).rejects.toMatchObject({
      codeName: 'INSUFFICIENT_NOTES',
      message: 'no free USDC note covers 3 USDC (largest free note: 2 USDC)',
      fix: 'Deposit more USDC, or merge smaller notes.',
    });
    await expect(
      withdraw(fake.client, { commitment: note!.commitment, amount: 3_000_000n, recipient: fresh() }),
    ).rejects.toMatchObject({
      codeName: 'INSUFFICIENT_NOTES',
      context: { required: 3_000_000n, available: note!.amount },
    });
    expect(fake.wallet.freeNotes(FAKE_USDC)).toHaveLength(1);
    expect(fake.wallet.reserved.size).toBe(0);
  });
});
