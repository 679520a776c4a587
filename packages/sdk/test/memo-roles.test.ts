/**
 * 16.3 over the real interface: an ask at price 0 whose remainder fills for quote 0 gets a memo
 * whose only slots are its change and its fee (no trade-out). The stream's wallet stores the
 * change note, and a wallet recovered from the seed finds it on the ledger without its memo
 * cursor sticking. Real engine, ledger and settlement; stand-in proofs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instrument } from '@nightjar/protocol';
import { createStream, placeOrder, syncWallet, type StreamClientEvent } from '../src/index.js';
import { startTestVenue, type TestVenue } from './helpers.js';
import { advanceUntil, finalize, fund, newParty } from '@nightjar/testkit';

let v: TestVenue;
let inst: Instrument;

beforeAll(async () => {
  v = await startTestVenue({ settle: true, loginRateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
}, 60_000);
afterAll(async () => {
  await v?.close();
});

describe('a fill for quote 0 (16.3)', () => {
  it('the ask keeps its change note: from the stream, and from the ledger alone', async () => {
    const bob = await newParty(v);
    const alice = await newParty(v);
    const carol = await newParty(v);
    inst = await bob.client.instrument('SOL-USDC');
    const SOL = inst.base_mint;
    const USDC = inst.quote_mint;
    const size = inst.min_order_size; // 1,000,000 base units
    const tick = inst.tick_size; // one tick: size × tick / price_scale = 1 quote unit
    const fee = (q: bigint) => (q * inst.fee_bps) / 10_000n;
    await fund(bob, v, SOL, 5n * size);
    await fund(alice, v, USDC, 1n);
    await fund(carol, v, USDC, 1n);
    await finalize(v);
    const fills: StreamClientEvent[] = [];
    const stream = await createStream(bob.client);
    stream.on('fill', (e) => fills.push(e));
    try {
      // Bob asks 1.5 × size at any price; Alice's bid of size at one tick fills 1 × size (quote 1).
      const ask = await placeOrder(bob.client, { symbol: 'SOL-USDC', side: 'ask', amount: (3n * size) / 2n });
      await placeOrder(alice.client, { symbol: 'SOL-USDC', side: 'bid', amount: size, price: tick });
      await advanceUntil(v, () => fills.length === 1, 'the first fill');
      await finalize(v);
      // Carol's bid takes the remaining half size: quote floor(size/2 × tick / price_scale) = 0.
      await placeOrder(carol.client, { symbol: 'SOL-USDC', side: 'bid', amount: size, price: tick });
      await advanceUntil(v, () => fills.length === 2, 'the second fill');
      const change1 = 5n * size - size - fee(size);
      const change2 = change1 - size / 2n - fee(size / 2n);
      expect(fills.map((f) => f.type === 'fill' && f.stored)).toEqual([true, true]);
      expect(bob.wallet.orders.get(ask.orderId)?.status).toBe('fully_filled');
      const notes = (w: typeof bob.wallet) =>
        w
          .unspentNotes()
          .filter((n) => n.state !== 'spent')
          .map((n) => `${n.mint === SOL ? 'SOL' : 'USDC'}:${n.amount}`)
          .sort();
      expect(notes(bob.wallet)).toEqual([`SOL:${change2}`, 'USDC:1']);
      // The seed alone, through the ledger's memos: the same notes, and the cursor past both memos.
      const recovered = await newParty(v, { seed: bob.wallet.seed });
      const rw = recovered.wallet;
      const r = await syncWallet(recovered.client);
      expect(r.memosStored).toBe(2);
      expect(notes(rw)).toEqual(notes(bob.wallet));
      const { memos } = await v.ledger.getMemos({ from: 0, to: 10_000 });
      expect(rw.memoCursor).toBe(memos.at(-1)!.index + 1);
      await recovered.client.close();
    } finally {
      await stream.close();
      await Promise.all([bob.client.close(), alice.client.close(), carol.client.close()]);
    }
  }, 40_000);
});
