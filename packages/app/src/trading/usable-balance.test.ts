/** Usable vs arriving: a note backs an order only once the engine's tree has it and no hold keeps it. */
import { describe, expect, it } from 'vitest';
import {
  createWallet,
  FreshNoteHold,
  statusFromEvent,
  type TrackedOrder,
  type Wallet,
  type WalletNote,
} from '@nightjar/sdk';
import { usableBalance } from './usable-balance.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** A wallet with deposit notes of these amounts, every leaf on the ledger (leaf i for note i). */
function walletWith(amounts: bigint[]): { w: Wallet; notes: WalletNote[] } {
  const w = createWallet({ seed: new Uint8Array(32).fill(5) });
  const notes = amounts.map((a, i) => w.depositNote(i, USDC, a).note);
  w.addLeaves(
    0,
    0,
    notes.map((n) => n.commitment),
  );
  notes.forEach((n, i) => w.addNote({ ...n, leafIndex: i, state: 'free' }));
  return { w, notes };
}

/** The engine's tree as the venue reports it: its first `count` leaves. */
const engineHas = (count: number) => (n: WalletNote) => n.leafIndex !== undefined && n.leafIndex < count;

describe('usableBalance', () => {
  it('a note on the ledger but not yet in the engine tree is arriving, not usable (the 13 s gap)', () => {
    const { w } = walletWith([100n, 250n]);
    // The wallet calls both available; the engine's tree has only the first leaf.
    expect(w.balances()[USDC]?.available).toBe(350n);
    expect(usableBalance(w, USDC, engineHas(1))).toEqual({
      usable: 100n,
      arriving: 250n,
      locked: 0n,
      pendingSettlement: 0n,
    });
    // Once the engine's tree takes the leaf, it is usable.
    expect(usableBalance(w, USDC, engineHas(2))).toMatchObject({ usable: 350n, arriving: 0n });
  });

  it('a deposit whose leaf has not landed is arriving too', () => {
    const w = createWallet({ seed: new Uint8Array(32).fill(6) });
    w.addNote({ ...w.depositNote(0, USDC, 40n).note, leafIndex: undefined, state: 'free' });
    expect(usableBalance(w, USDC, engineHas(10))).toMatchObject({ usable: 0n, arriving: 40n });
  });

  it('a note on its fresh-note hold is arriving until the hold passes', () => {
    const { w } = walletWith([70n]);
    let now = 1_000;
    const hold = new FreshNoteHold({ maxMs: 5_000, now: () => now, random: () => 5_000 });
    const canBack = (n: WalletNote) => engineHas(1)(n) && hold.ready(n, true);
    expect(usableBalance(w, USDC, canBack)).toMatchObject({ usable: 0n, arriving: 70n });
    now += 5_000;
    expect(usableBalance(w, USDC, canBack)).toMatchObject({ usable: 70n, arriving: 0n });
  });

  it('notes backing an order, or reserved for one being placed, are locked, never usable', () => {
    const { w, notes } = walletWith([100n, 200n, 300n]);
    const order: TrackedOrder = {
      orderId: 'aa'.repeat(16),
      symbol: 'SOL-USDC',
      side: 'bid',
      noteCommitment: notes[0]!.commitment,
      // The resting status, whatever the SDK's word for it.
      status: statusFromEvent('partially_filled'),
      baseMint: 'SOL',
      quoteMint: USDC,
      filledQuantity: 0n,
    };
    w.trackOrder(order);
    w.reserved.add(notes[1]!.commitment);
    expect(usableBalance(w, USDC, engineHas(3))).toEqual({
      usable: 300n,
      arriving: 0n,
      locked: 300n,
      pendingSettlement: 0n,
    });
  });
});
