/**
 * 16.3 / 16.4: a memo lists only the outputs that exist, in role order (trade-out, change, fee),
 * and each must derive from the consumed note; the consumed note is taken out of use, never
 * marked spent on the memo's word.
 */
import { describe, expect, it } from 'vitest';
import { changeOutputInner, encryptFillMemo, OutputRole, outputInner, type FillMemo } from '@nightjar/crypto';
import { bytesToHex, hexToBytes } from '@nightjar/protocol';
import { createWallet, type TrackedOrder, type Wallet } from './wallet.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const ORDER = '33'.repeat(16);

/** A wallet with a 1000-unit SOL deposit backing a resting ask. */
function askWallet(seedByte: number): { w: Wallet; input: string; parent: bigint; order: TrackedOrder } {
  const w = createWallet({ seed: new Uint8Array(32).fill(seedByte) });
  const note = w.depositNote(0, SOL, 1000n).note;
  w.addLeaves(0, 0, [note.commitment]);
  w.addNote({ ...note, leafIndex: 0, state: 'free' });
  const order: TrackedOrder = {
    orderId: ORDER,
    symbol: 'SOL-USDC',
    side: 'ask',
    noteCommitment: note.commitment,
    status: 'pending_settlement',
    baseMint: SOL,
    quoteMint: USDC,
    filledQuantity: 0n,
  };
  w.trackOrder(order);
  return { w, input: note.commitment, parent: BigInt('0x' + note.inner), order };
}

const seal = (w: Wallet, memo: Omit<FillMemo, 'orderId' | 'matchId'>) =>
  bytesToHex(encryptFillMemo(w.keys.viewingPublicKey, { orderId: hexToBytes(ORDER), matchId: 1n, ...memo }));

describe('fill memo outputs by role (16.3)', () => {
  it('an ask filled for quote 0 keeps its change note (the only slot is the change)', () => {
    const { w, input, parent, order } = askWallet(7);
    const change = outputInner(parent, OutputRole.change);
    const changeNote = w.noteFor(SOL, 600n, change, 0, 'change');
    w.addLeaves(0, 1, [changeNote.commitment]);
    const memo = seal(w, { tradeAmount: 0n, changeAmount: 600n, feeAmount: 0n, outputInners: [change] });
    const r = w.ingestMemo(memo, [SOL, USDC]);
    expect(r.status).toBe('stored');
    expect(w.notes.get(changeNote.commitment)).toMatchObject({ amount: 600n, mint: SOL, origin: 'change' });
    // The remainder rests on the change note; the input is out of use but not called spent.
    expect(order.noteCommitment).toBe(changeNote.commitment);
    expect(w.notes.get(input)?.state).toBe('spending');
    expect(w.balances()[SOL]).toEqual({ available: 0n, locked: 0n, pendingSettlement: 600n, pending: 0n });
  });

  it('with a fee, the change is the first slot and the fee the second: stored, not stuck unverified', () => {
    const { w, parent } = askWallet(8);
    const change = outputInner(parent, OutputRole.change);
    const fee = outputInner(parent, OutputRole.fee);
    const changeNote = w.noteFor(SOL, 599n, change, 0, 'change');
    // The fee note is a leaf too (it belongs to the fee owner; the wallet does not store it).
    w.addLeaves(0, 1, [changeNote.commitment, w.noteFor(SOL, 1n, fee, 0, 'change').commitment]);
    const memo = seal(w, {
      tradeAmount: 0n,
      changeAmount: 599n,
      feeAmount: 1n,
      outputInners: [change, fee],
    });
    const r = w.ingestMemo(memo, [SOL, USDC]);
    expect(r.status).toBe('stored');
    expect(r.status === 'stored' && r.notes.map((n) => [n.origin, n.amount])).toEqual([['change', 599n]]);
  });

  it('trade-out, change and fee all present: each slot read with its own role and mint', () => {
    const { w, parent } = askWallet(9);
    const [trade, change, fee] = [OutputRole.tradeOut, OutputRole.change, OutputRole.fee].map((r) =>
      outputInner(parent, r),
    ) as [bigint, bigint, bigint];
    w.addLeaves(0, 1, [
      w.noteFor(USDC, 75n, trade, 0, 'trade').commitment,
      w.noteFor(SOL, 499n, change, 0, 'change').commitment,
    ]);
    const memo = seal(w, {
      tradeAmount: 75n,
      changeAmount: 499n,
      feeAmount: 1n,
      outputInners: [trade, change, fee],
    });
    const r = w.ingestMemo(memo, [SOL, USDC]);
    expect(r.status === 'stored' && r.notes.map((n) => [n.origin, n.mint, n.amount])).toEqual([
      ['trade', USDC, 75n],
      ['change', SOL, 499n],
    ]);
  });

  it('a memo naming a tracked order whose outputs do not derive from its note is ignored (16.4)', () => {
    const { w, input, order } = askWallet(10);
    const forgedParent = 424242n;
    const change = outputInner(forgedParent, OutputRole.change);
    const forged = w.noteFor(SOL, 900n, change, 0, 'change');
    w.addLeaves(0, 1, [forged.commitment]);
    const memo = seal(w, { tradeAmount: 0n, changeAmount: 900n, feeAmount: 0n, outputInners: [change] });
    expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('orphan');
    expect(w.notes.get(input)?.state).toBe('free');
    expect(w.notes.has(forged.commitment)).toBe(false);
    expect(order.noteCommitment).toBe(input);
  });

  it('a slot count that does not match the non-zero amounts is ignored', () => {
    const { w, parent, input } = askWallet(11);
    const change = outputInner(parent, OutputRole.change);
    w.addLeaves(0, 1, [w.noteFor(SOL, 600n, change, 0, 'change').commitment]);
    const memo = seal(w, { tradeAmount: 5n, changeAmount: 600n, feeAmount: 0n, outputInners: [change] });
    expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('orphan');
    expect(w.notes.get(input)?.state).toBe('free');
  });

  it('a wallet that does not track the order (recovered from its seed) finds the parent among its notes', () => {
    const { w, parent } = askWallet(12);
    w.orders.clear();
    const trade = outputInner(parent, OutputRole.tradeOut);
    const tradeNote = w.noteFor(USDC, 40n, trade, 0, 'trade');
    w.addLeaves(0, 1, [tradeNote.commitment]);
    const memo = seal(w, { tradeAmount: 40n, changeAmount: 0n, feeAmount: 0n, outputInners: [trade] });
    expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('stored');
    expect(w.notes.get(tradeNote.commitment)).toMatchObject({ mint: USDC, amount: 40n });
  });
});

describe('settlement v2 memos: n = 3 inners, zero-value outputs included (issue 29)', () => {
  const USE_DIGEST = 0x1234n; // stands in for the remainder's order digest the change inner carries

  it('a partial fill: stores the trade-out and the change (its inner carries the remainder digest), reserved for the live order', () => {
    const { w, input, parent, order } = askWallet(21);
    order.status = 'pending';
    const trade = outputInner(parent, OutputRole.tradeOut);
    const change = changeOutputInner(parent, USE_DIGEST);
    const fee = outputInner(parent, OutputRole.fee);
    const tradeNote = w.noteFor(USDC, 50n, trade, 0, 'trade');
    const changeNote = w.noteFor(SOL, 600n, change, 0, 'change');
    w.addLeaves(0, 1, [
      tradeNote.commitment,
      changeNote.commitment,
      w.noteFor(SOL, 1n, fee, 0, 'change').commitment,
    ]);
    const r = w.ingestMemo(
      seal(w, { tradeAmount: 50n, changeAmount: 600n, feeAmount: 1n, outputInners: [trade, change, fee] }),
      [SOL, USDC],
    );
    expect(r.status).toBe('stored');
    expect(w.notes.get(changeNote.commitment)).toMatchObject({ amount: 600n, origin: 'change' });
    expect(order.noteCommitment).toBe(changeNote.commitment);
    expect(w.notes.get(input)?.state).toBe('spending');
    // Free on chain (no relock), yet not offered to another order while this one lives.
    w.notes.get(changeNote.commitment)!.state = 'free';
    expect(w.freeNotes(SOL).map((n) => n.commitment)).not.toContain(changeNote.commitment);
    order.status = 'cancelled';
    expect(w.freeNotes(SOL).map((n) => n.commitment)).toContain(changeNote.commitment);
  });

  it('a full fill: the zero-value change is checked against its leaf but never stored', () => {
    const { w, parent } = askWallet(22);
    const trade = outputInner(parent, OutputRole.tradeOut);
    const change = changeOutputInner(parent, USE_DIGEST);
    const fee = outputInner(parent, OutputRole.fee);
    const tradeNote = w.noteFor(USDC, 150n, trade, 0, 'trade');
    const zeroChange = w.noteFor(SOL, 0n, change, 0, 'change');
    const memo = seal(w, {
      tradeAmount: 150n,
      changeAmount: 0n,
      feeAmount: 1n,
      outputInners: [trade, change, fee],
    });
    // Without the zero-value change's leaf the memo is not believed yet.
    w.addLeaves(0, 1, [tradeNote.commitment]);
    expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('unverified');
    w.addLeaves(0, 2, [zeroChange.commitment]);
    const r = w.ingestMemo(memo, [SOL, USDC]);
    expect(r.status).toBe('stored');
    expect(w.notes.get(tradeNote.commitment)).toMatchObject({ amount: 150n, mint: USDC });
    expect(w.notes.has(zeroChange.commitment)).toBe(false);
    expect(r.status === 'stored' && r.notes.every((n) => n.amount > 0n)).toBe(true);
  });

  it('a change inner with no trade-out or fee of ours beside it is not ours (orphan)', () => {
    const { w, parent } = askWallet(23);
    const stranger = 0x77n;
    const memo = seal(w, {
      tradeAmount: 1n,
      changeAmount: 5n,
      feeAmount: 1n,
      outputInners: [
        outputInner(stranger, 1),
        changeOutputInner(parent, USE_DIGEST),
        outputInner(stranger, 3),
      ],
    });
    expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('orphan');
  });
});
