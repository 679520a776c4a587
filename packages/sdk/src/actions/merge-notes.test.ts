/**
 * `mergeNotes` against the in-process dev ledger: the smallest free notes (or those named) into one
 * of their total; fewer than 2 free notes is `NothingToMergeError`, a wrong count of named notes a
 * parameter error; nothing is sent then.
 */
import { FAKE_USDC, depositNotes, fakeClient, useFakeLedger } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { mergeNotes } from './merge-notes.js';

const ledger = useFakeLedger();

describe('mergeNotes', () => {
  it('merges the candidates by default, or the notes named, into one note of their total', async () => {
    const fake = fakeClient({ ledger: ledger() });
    const [a, b, c] = await depositNotes(fake, ledger(), FAKE_USDC, [10n, 20n, 40n]);
    const named = await mergeNotes(fake.client, {
      mint: FAKE_USDC,
      commitments: [a!.commitment, c!.commitment],
    });
    expect(named.spent.map((n) => n.commitment)).toEqual([a!.commitment, c!.commitment]);
    expect(named.note).toMatchObject({ amount: 50n, state: 'free' });

    const all = await mergeNotes(fake.client, { mint: FAKE_USDC });
    expect(all.spent.map((n) => n.commitment).sort()).toEqual([b!.commitment, named.note.commitment].sort());
    expect(all.note.amount).toBe(70n);
    expect(fake.wallet.freeNotes(FAKE_USDC).map((n) => n.amount)).toEqual([70n]);
  });

  it('one free note: NothingToMergeError; one or five named: refused; nothing sent', async () => {
    const fake = fakeClient({ ledger: ledger() });
    const [only] = await depositNotes(fake, ledger(), FAKE_USDC, [5n]);
    await expect(mergeNotes(fake.client, { mint: FAKE_USDC })).rejects.toMatchObject({
      codeName: 'NOTHING_TO_MERGE',
      context: { count: 1 },
    });
    await expect(
      mergeNotes(fake.client, { mint: FAKE_USDC, commitments: [only!.commitment] }),
    ).rejects.toMatchObject({ message: 'a merge takes 2 to 4 notes' });
    const five = Array.from({ length: 5 }, (_, i) => `${i}`.padStart(64, '0'));
    await expect(mergeNotes(fake.client, { mint: FAKE_USDC, commitments: five })).rejects.toMatchObject({
      message: 'a merge takes 2 to 4 notes',
    });
    expect(fake.wallet.freeNotes(FAKE_USDC)).toHaveLength(1);
  });
});
