/**
 * `splitNote` against the in-process dev ledger: amounts plus the remainder, or `into` equal parts
 * of the largest note; asking more than the note holds, more than 8 notes, or from a mint with no
 * covering note is refused before anything is sent.
 */
import { FAKE_SOL, FAKE_USDC, depositNotes, fakeClient, useFakeLedger } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { splitNote } from './split-note.js';

const ledger = useFakeLedger();

describe('splitNote', () => {
  it('amounts (human or atomic) take the smallest covering note; the remainder is the last note', async () => {
    const fake = fakeClient({ ledger: ledger() });
    const [small] = await depositNotes(fake, ledger(), FAKE_USDC, [5_000_000n, 9_000_000n]);
    const r = await splitNote(fake.client, { mint: FAKE_USDC, amounts: ['1.5', 2_000_000n] });
    expect(r.spent.map((n) => n.commitment)).toEqual([small!.commitment]);
    expect(r.notes.map((n) => n.amount)).toEqual([1_500_000n, 2_000_000n, 1_500_000n]);
  });

  it('into: equal parts of the largest note, the odd units on the first parts', async () => {
    const fake = fakeClient({ ledger: ledger() });
    await depositNotes(fake, ledger(), FAKE_USDC, [4n, 11n]);
    const r = await splitNote(fake.client, { mint: FAKE_USDC, into: 3 });
    expect(r.spent.map((n) => n.amount)).toEqual([11n]);
    expect(r.notes.map((n) => n.amount)).toEqual([4n, 4n, 3n]);
  });

  it('refuses what no split can do, sending nothing', async () => {
    const fake = fakeClient({ ledger: ledger() });
    const [note] = await depositNotes(fake, ledger(), FAKE_USDC, [10n]);
    const named = { mint: FAKE_USDC, commitment: note!.commitment };
    await expect(splitNote(fake.client, { ...named, amounts: [6n, 6n] })).rejects.toMatchObject({
      codeName: 'JOIN_SPLIT_AMOUNTS',
      message: expect.stringContaining('more than the note holds'),
    });
    await expect(splitNote(fake.client, { ...named, amounts: Array(8).fill(1n) })).rejects.toMatchObject({
      codeName: 'JOIN_SPLIT_AMOUNTS',
      message: '8 notes and the remainder make 9: a split creates at most 8',
    });
    await expect(splitNote(fake.client, { ...named, amounts: [0n] })).rejects.toMatchObject({
      codeName: 'JOIN_SPLIT_AMOUNTS',
    });
    await expect(splitNote(fake.client, { ...named, into: 9 })).rejects.toMatchObject({
      message: '`into` must be an integer from 2 to 8',
    });
    await expect(splitNote(fake.client, { mint: FAKE_SOL, amounts: [1n] })).rejects.toMatchObject({
      codeName: 'INSUFFICIENT_NOTES',
    });
    expect(fake.wallet.freeNotes(FAKE_USDC)).toHaveLength(1);
    expect(fake.wallet.reserved.size).toBe(0);
  });
});
