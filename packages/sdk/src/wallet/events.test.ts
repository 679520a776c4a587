import process from 'node:process';
import { describe, expect, it, vi } from 'vitest';
import { encryptFillMemo, OutputRole, outputInner } from '@nightjar/crypto';
import { bytesToHex, hexToBytes, type Instrument } from '@nightjar/protocol';
import { registerInstrument } from '../core/utils/asset-registry.js';
import type { WalletFillEvent, WalletNoteStoredEvent, WalletOrderEvent } from './events.js';
import { createWallet, fillKey, type TrackedOrder } from './wallet.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const ORDER = '44'.repeat(16);

/** A wallet with a 1000-unit SOL deposit backing a resting ask on `symbol`, and what it told. */
function askWallet(symbol: string) {
  const w = createWallet({ seed: new Uint8Array(32).fill(21) });
  const told = {
    notes: [] as WalletNoteStoredEvent[],
    orders: [] as WalletOrderEvent[],
    fills: [] as WalletFillEvent[],
  };
  w.on('note-stored', (e) => told.notes.push(e));
  w.on('order', (e) => told.orders.push(e));
  w.on('fill', (e) => told.fills.push(e));
  const note = w.depositNote(0, SOL, 1000n).note;
  w.addLeaves(0, 0, [note.commitment]);
  w.addNote({ ...note, leafIndex: 0, state: 'free' });
  const order: TrackedOrder = {
    orderId: ORDER,
    symbol,
    side: 'ask',
    noteCommitment: note.commitment,
    status: 'pending',
    baseMint: SOL,
    quoteMint: USDC,
    filledQuantity: 0n,
  };
  w.trackOrder(order);
  return { w, told, order, parent: BigInt('0x' + note.inner) };
}

/** A fill of the ask: 500 SOL sold for 75 USDC, a fee of 1 SOL, 499 SOL back as change. */
function fill(w: ReturnType<typeof askWallet>['w'], parent: bigint): string {
  const inner = (role: OutputRole) => outputInner(parent, role);
  const [trade, change, fee] = [inner(OutputRole.tradeOut), inner(OutputRole.change), inner(OutputRole.fee)];
  const outputs = [w.noteFor(USDC, 75n, trade, 0, 'trade'), w.noteFor(SOL, 499n, change, 0, 'change')];
  w.addLeaves(
    0,
    1,
    outputs.map((n) => n.commitment),
  );
  const memo = { tradeAmount: 75n, changeAmount: 499n, feeAmount: 1n, outputInners: [trade, change, fee] };
  return bytesToHex(
    encryptFillMemo(w.keys.viewingPublicKey, { orderId: hexToBytes(ORDER), matchId: 9n, ...memo }),
  );
}

describe('wallet events', () => {
  it('tells each note stored once, and a tracked order placed', () => {
    const { w, told, order } = askWallet('SOL-EVENTS');
    expect(told.notes.map((e) => e.note.amount)).toEqual([1000n]);
    w.addNote(told.notes[0]!.note); // already stored: nothing told
    expect(told.notes).toHaveLength(1);
    expect(told.orders).toEqual([{ order, previous: undefined }]);
  });

  it('tells an order change with the state before it, and nothing when nothing changed', () => {
    const { w, order } = askWallet('SOL-EVENTS');
    // The order is the tracked one itself: what it was when told is read as it is told.
    const told: unknown[] = [];
    w.on('order', (e) => told.push([e.previous, e.order.status]));
    w.updateOrder(order, (o) => (o.filledQuantity = 5n));
    w.updateOrder(order, () => undefined);
    w.updateOrder(order, (o) => (o.status = 'cancelled'));
    expect(told).toEqual([
      [{ status: 'pending', filledQuantity: 0n }, 'pending'],
      [{ status: 'pending', filledQuantity: 5n }, 'cancelled'],
    ]);
  });

  it('tells a fill with its size, quote, fee and price, computed from the memo', () => {
    const inst = {
      symbol: 'SOL-USDC',
      base_mint: SOL,
      quote_mint: USDC,
      base_decimals: 9,
      quote_decimals: 6,
    };
    registerInstrument({ ...inst, price_scale: 1_000_000_000n, tick_size: 1_000_000n } as Instrument);
    const { w, told, order, parent } = askWallet('SOL-USDC');
    expect(w.ingestMemo(fill(w, parent), [SOL, USDC]).status).toBe('stored');
    expect(told.fills).toHaveLength(1);
    expect(told.fills[0]).toMatchObject({
      orderId: ORDER,
      matchId: '9',
      order,
      size: 500n,
      quote: 75n,
      fee: 1n,
      feeMint: SOL,
      // 75 × 10^9 / 500 = 150,000,000 exactly, on the tick.
      price: 150_000_000n,
    });
    expect(told.notes.slice(1).map((e) => [e.note.origin, e.note.amount])).toEqual([
      ['trade', 75n],
      ['change', 499n],
    ]);
    // Kept as the order's fill (for views that outlive the event), its settlement not yet heard of.
    expect(w.fills.get(fillKey(ORDER, '9'))).toMatchObject({
      orderId: ORDER,
      matchId: '9',
      size: 500n,
      fee: 1n,
      price: 150_000_000n,
      settlement: { stage: 'queued', outcome: 'pending' },
    });
  });

  it('tells no price for a market this process has not learnt; an unsubscribed listener hears nothing', () => {
    const { w, told, parent } = askWallet('SOL-UNKNOWN');
    const quiet: WalletFillEvent[] = [];
    const off = w.on('fill', (e) => quiet.push(e));
    off();
    w.ingestMemo(fill(w, parent), [SOL, USDC]);
    expect(told.fills[0]).toMatchObject({ size: 500n, quote: 75n, price: undefined });
    expect(quiet).toEqual([]);
  });
  it('a listener that throws is reported as a warning; the fill is stored whole and the memo marked seen', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const { w, told, parent } = askWallet('SOL-THROWS');
      w.on('note-stored', () => {
        throw new Error('a view broke');
      });
      const memo = fill(w, parent);
      expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('stored');
      // Both outputs stored (the first listener call threw before the second was stored), the
      // fill told to the listeners after the broken one, and the memo not taken again.
      expect(told.notes.slice(1).map((e) => e.note.amount)).toEqual([75n, 499n]);
      expect(told.fills).toHaveLength(1);
      expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('duplicate');
      expect(warn).toHaveBeenCalledWith(
        "a wallet 'note-stored' listener threw: a view broke",
        'NightjarWalletListenerWarning',
      );
    } finally {
      warn.mockRestore();
    }
  });
});
