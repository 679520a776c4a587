import { describe, expect, it } from 'vitest';
import { createWallet, type WalletNote } from '@nightjar/sdk';
import { sideHoldings } from './holdings.js';
import { market, SOL } from './test-market.js';

const BASE = market.base_mint;

function walletWithAsk() {
  const w = createWallet();
  const note: WalletNote = { ...w.noteFor(BASE, SOL(1.1), 7n, 0, 'deposit'), leafIndex: 0, state: 'free' };
  w.addNote(note);
  w.trackOrder({
    orderId: 'a'.repeat(32),
    symbol: market.symbol,
    side: 'ask',
    noteCommitment: note.commitment,
    status: 'pending',
    baseMint: BASE,
    quoteMint: market.quote_mint,
    filledQuantity: 0n,
  });
  return { w, note };
}

describe('a demo side’s holdings', () => {
  it('a resting ask’s note is tied; nothing awaits a memo', () => {
    const { w } = walletWithAsk();
    expect(sideHoldings(w, BASE, 'ask')).toEqual({ free: [], tied: SOL(1.1), awaitingMemo: false });
  });

  it('a fill being consumed still counts as tied, and the side awaits its memo: no refill', () => {
    const { w, note } = walletWithAsk();
    // Fully filled: the order no longer holds the note, and its memo has not come.
    w.updateOrder(w.orders.get('a'.repeat(32))!, (o) => (o.status = 'fully_filled'));
    w.trackFill('a'.repeat(32), 'm1');
    note.state = 'spending';
    const held = sideHoldings(w, BASE, 'ask');
    expect(held.tied).toBe(SOL(1.1));
    expect(held.awaitingMemo).toBe(true);
    expect(sideHoldings(w, BASE, 'bid').awaitingMemo).toBe(false);
  });
});
