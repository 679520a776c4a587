/**
 * `selectNote`: an exact free note, else the smallest larger one (declaring `collateralAmount`);
 * notes backing orders or reserved are not free; none that would do is `InsufficientNotesError`.
 */
import { FAKE_SOL, FAKE_USDC, fakeClient, giveNote } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { selectNote } from './select-note.js';

describe('selectNote', () => {
  it('prefers the exact note, then the smallest larger one with its amount as collateral', () => {
    const { client, wallet } = fakeClient();
    const small = giveNote(wallet, FAKE_USDC, 50n, 0);
    const exact = giveNote(wallet, FAKE_USDC, 100n, 1);
    const larger = giveNote(wallet, FAKE_USDC, 120n, 2);
    giveNote(wallet, FAKE_USDC, 500n, 3);
    giveNote(wallet, FAKE_SOL, 100n, 4);
    expect(selectNote(client, { mint: FAKE_USDC, required: 100n })).toEqual({
      note: exact,
      collateralAmount: undefined,
    });
    expect(selectNote(client, { mint: FAKE_USDC, required: 110n })).toEqual({
      note: larger,
      collateralAmount: 120n,
    });
    expect(selectNote(client, { mint: FAKE_USDC, required: 1n, commitment: small.commitment }).note).toEqual(
      small,
    );
  });

  it('skips reserved notes and those the filter refuses; none left: InsufficientNotesError', () => {
    const { client, wallet } = fakeClient();
    const a = giveNote(wallet, FAKE_USDC, 100n, 0);
    const b = giveNote(wallet, FAKE_USDC, 200n, 1);
    wallet.reserved.add(a.commitment);
    expect(selectNote(client, { mint: FAKE_USDC, required: 100n }).note.commitment).toBe(b.commitment);
    let err: unknown;
    try {
      selectNote(client, { mint: FAKE_USDC, required: 100n, usable: (n) => n.commitment !== b.commitment });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      codeName: 'INSUFFICIENT_NOTES',
      message: expect.stringContaining('note covers'),
      context: { required: 100n, available: 0n },
    });
  });
});
