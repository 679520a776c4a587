/**
 * `joinSplit` against the in-process dev ledger: consumes free notes and creates notes of the same
 * total, telling each stage; an input that is not free is `NoteNotFreeError` naming why, amounts that
 * do not add up are `JoinSplitAmountsError`; nothing is sent then and the inputs stay free.
 */
import { FAKE_USDC, depositNotes, fakeClient, useFakeLedger } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { joinSplit, type JoinSplitProgress } from './join-split.js';

const ledger = useFakeLedger();

describe('joinSplit', () => {
  it('two notes into three of the same total; the inputs spent, the outputs free at their leaves', async () => {
    const fake = fakeClient({ ledger: ledger() });
    const [a, b] = await depositNotes(fake, ledger(), FAKE_USDC, [300n, 200n]);
    const stages: JoinSplitProgress['stage'][] = [];
    const r = await joinSplit(fake.client, {
      mint: FAKE_USDC,
      inputs: [a!.commitment, b!.commitment],
      amounts: [100n, 150n, 250n],
      onProgress: (p) => stages.push(p.stage),
    });
    expect(stages).toEqual(['proving', 'sending', 'landed', 'usable']);
    expect(r.spent.map((n) => n.commitment)).toEqual([a!.commitment, b!.commitment]);
    expect(r.notes.map((n) => [n.amount, n.state, n.leafIndex !== undefined])).toEqual([
      [100n, 'free', true],
      [150n, 'free', true],
      [250n, 'free', true],
    ]);
    expect(fake.wallet.notes.get(a!.commitment)?.state).toBe('spent');
    expect(fake.wallet.reserved.size).toBe(0);
  });

  it('a note that is not free or amounts that do not add up: refused before sending', async () => {
    const fake = fakeClient({ ledger: ledger() });
    const [note] = await depositNotes(fake, ledger(), FAKE_USDC, [500n]);
    fake.wallet.reserved.add(note!.commitment);
    await expect(
      joinSplit(fake.client, { mint: FAKE_USDC, inputs: [note!.commitment], amounts: [500n] }),
    ).rejects.toMatchObject({ codeName: 'NOTE_NOT_FREE', context: { reason: 'reserved' } });
    fake.wallet.reserved.delete(note!.commitment);
    await expect(
      joinSplit(fake.client, { mint: FAKE_USDC, inputs: ['0f'.repeat(32)], amounts: [1n] }),
    ).rejects.toMatchObject({ codeName: 'NOTE_NOT_FREE', context: { reason: 'unknown' } });
    await expect(
      joinSplit(fake.client, { mint: FAKE_USDC, inputs: [note!.commitment], amounts: [200n, 200n] }),
    ).rejects.toMatchObject({ codeName: 'JOIN_SPLIT_AMOUNTS' });
    expect(fake.wallet.freeNotes(FAKE_USDC).map((n) => n.commitment)).toEqual([note!.commitment]);
    expect(fake.wallet.reserved.size).toBe(0);
  });
});
