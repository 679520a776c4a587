/**
 * Issue 30, item 6: a deposit was spent by the first settlement after it became final (rank 1 of
 * 38). With `freshNoteHold`, a deposit note backs no order, directly or through a merge made for
 * one, until its random hold has passed. Real engine and ledger; the hold's clock and random
 * source are the test's (no sleeps: `noteWaitMs: 0` answers at once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredCollateral, type Instrument } from '@nightjar/protocol';
import { deposit, FreshNoteHold, placeOrder, type Client } from '../src/index.js';
import { startTestVenue, type TestVenue } from './helpers.js';
import { finalize, newParty } from '@nightjar/testkit';
import type { NightjarError } from '../src/index.js';
import { INSUFFICIENT_NOTES_CODES, NIGHTJAR_ERROR__NOTE_HELD, isNightjarError } from '../src/index.js';

let v: TestVenue;
let inst: Instrument;

beforeAll(async () => {
  v = await startTestVenue({ loginRateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
}, 60_000);
afterAll(async () => {
  await v?.close();
});

async function heldClient(now: () => number, draws: number[]): Promise<Client> {
  const { client } = await newParty(v, {
    client: {
      freshNoteHold: {
        maxMs: 60_000,
        now,
        random: (max: number) => {
          draws.push(max);
          return 30_000;
        },
      },
    },
  });
  return client;
}

async function fundNote(c: Client, mint: string, amount: bigint) {
  await v.ledger.requestAirdrop({ owner: c.wallet.keys.funding.address, mint, amount: amount.toString() });
  return (await deposit(c, { mint, amount, wait: 'landed' })).note;
}

describe('the fresh-note hold', () => {
  it('draws uniformly within [0, maxMs] by default, and holds deposits only', () => {
    const hold = new FreshNoteHold({ maxMs: 1_000, now: () => 0 });
    const note = (i: number, origin: 'deposit' | 'trade') =>
      ({ commitment: i.toString(16).padStart(64, '0'), origin }) as never;
    for (let i = 0; i < 200; i++) {
      const at = hold.releaseAt(note(i, 'deposit'), true);
      expect(at === undefined || (at > 0 && at <= 1_000)).toBe(true);
    }
    expect(hold.releaseAt(note(999, 'trade'), true)).toBeUndefined();
    // Not yet final: its hold has not begun.
    expect(hold.releaseAt(note(1_000, 'deposit'), false)).toBe(Infinity);
    expect(new FreshNoteHold({ maxMs: 0 }).ready(note(1, 'deposit'), true)).toBe(true);
  });

  it('keeps a fresh deposit from backing an order, or a merge for one, until its hold has passed', async () => {
    let t = 1_700_000_000_000;
    const draws: number[] = [];
    const c = await heldClient(() => t, draws);
    try {
      inst = await c.instrument('SOL-USDC');
      const size = inst.min_order_size;
      const need = requiredCollateral('ask', size, 0n, inst);
      const note = await fundNote(c, inst.base_mint, need);
      await finalize(v);
      const order = { symbol: 'SOL-USDC', side: 'ask', amount: size, noteWaitMs: 0 } as const;
      // Before the fix the order was placed at once, on the note that had just become final.
      const err = await placeOrder(c, order).catch((e: unknown) => e);
      expect(isNightjarError(err, NIGHTJAR_ERROR__NOTE_HELD)).toBe(true);
      expect((err as NightjarError<typeof NIGHTJAR_ERROR__NOTE_HELD>).context.readyAt).toBe(t + 30_000);
      expect(draws).toEqual([60_000]);
      t += 29_999;
      expect(
        isNightjarError(await placeOrder(c, order).catch((e: unknown) => e), NIGHTJAR_ERROR__NOTE_HELD),
      ).toBe(true);
      expect(c.wallet.reserved.size).toBe(0);

      // A merge for an order would spend held deposits just the same: none is made.
      const a = await fundNote(c, inst.base_mint, need);
      const b = await fundNote(c, inst.base_mint, need);
      await finalize(v);
      const before = c.wallet.unspentNotes().map((n) => n.commitment);
      const merged = await placeOrder(c, { ...order, amount: 2n * size }).catch((e: unknown) => e);
      expect(isNightjarError(merged, INSUFFICIENT_NOTES_CODES)).toBe(true);
      expect(c.wallet.unspentNotes().map((n) => n.commitment)).toEqual(before);

      t += 1;
      const placed = await placeOrder(c, order);
      expect(placed.noteCommitment).toBe(note.commitment);
      expect([a.commitment, b.commitment]).not.toContain(placed.noteCommitment);
    } finally {
      await c.close();
    }
  }, 60_000);
});
