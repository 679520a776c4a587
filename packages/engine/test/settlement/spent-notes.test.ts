/**
 * Issue 28 item 5: orders on spent notes. Intake never looked at a note's ledger state, so a note
 * spent outside the venue (withdrawn, split) still backed an order: placed as a phantom bid each
 * slot it won the auction, its lock failed `NoteSpent`, and the honest bid and ask it crossed never
 * traded. Now the engine mirrors the ledger's nullifier set (note-states.ts): intake refuses a spent
 * note (1003), a resting order whose note is spent leaves before the auction (`cancelled`, reason
 * `note_spent`). Over HTTPS and the stream, against the in-process ledger on a manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SOL, startTestVenue, Trader, USDC, type TestVenue } from '@nightjar/testkit';
import {
  has,
  kinds,
  noteState,
  nullifierOf,
  ONE_SOL,
  orderEvents,
  party,
  place,
  PRICE,
  settleUntil,
  spendNote,
  withdrawal,
} from './venue-helpers.js';

let venue: TestVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

describe('orders on spent notes', () => {
  it('a note spent on the ledger (a withdrawal) is refused at intake with 1003', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const alice = await party(v);
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    await spendNote(v, usdc);
    expect(await noteState(v, nullifierOf(usdc))).toBe('spent');

    const r = await v.client.send('/orders', { token: alice.token, body: alice.trader.order(usdc) });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(1003);
    // The same refusal on the stream.
    const reply = await alice.stream.request({ op: 'order.place', params: alice.trader.order(usdc) });
    expect(reply).toMatchObject({ op: 'error', code: 1003 });
  });

  it('phantom bids on spent notes, one per slot, no longer keep an honest bid and ask from trading', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const [alice, bob, mallory] = [await party(v), await party(v), await party(v)];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    // Mallory's notes, each spent before its phantom bid (which outbids Alice's) is placed.
    const richer = PRICE + 1_000_000n;
    const phantoms = [];
    for (let i = 0; i < 4; i++)
      phantoms.push(await mallory.trader.deposit(USDC, Trader.required('bid', ONE_SOL, richer)));
    for (const note of phantoms) await spendNote(v, note);

    const bid = await place(v, alice, usdc);
    const ask = await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
    for (const note of phantoms) {
      const r = await v.client.send('/orders', {
        token: mallory.token,
        body: mallory.trader.order(note, { price_limit: richer }),
      });
      expect(r.body.code).toBe(1003);
      await v.advance(1);
      if (has(alice, bid, 'fully_filled')()) break;
    }
    await settleUntil(
      v,
      () => has(alice, bid, 'fully_filled')() && has(bob, ask, 'fully_filled')(),
      'the honest pair filled',
    );
    expect(kinds(alice, bid)).toEqual(['pending_settlement', 'fully_filled']);
    expect(kinds(bob, ask)).toEqual(['pending_settlement', 'fully_filled']);
    expect(mallory.stream.events('orders')).toEqual([]);
  });

  it('a resting order whose note is spent leaves the book before the auction (cancelled, note_spent)', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const [alice, bob, carol] = [await party(v), await party(v), await party(v)];
    const richer = PRICE + 1_000_000n;
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const phantomNote = await carol.trader.deposit(USDC, Trader.required('bid', ONE_SOL, richer));
    const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    const bid = await place(v, alice, usdc);
    const phantom = await place(v, carol, phantomNote, { price_limit: richer });
    // Spent while resting, before the slot whose auction would match it with Bob's ask.
    await spendNote(v, phantomNote);
    const ask = await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'fully_filled'), 'the honest bid filled');

    expect(kinds(carol, phantom)).toEqual(['cancelled']);
    expect(orderEvents(carol, phantom)[0]).toMatchObject({ reason: 'note_spent' });
    expect((await v.client.send(`/orders/${phantom}`, { token: carol.token })).body.status).toBe('cancelled');
    await settleUntil(v, has(bob, ask, 'fully_filled'), 'the honest ask filled');
  });

  it('an account whose orders keep failing their locks (note spent after the auction) is refused 1401 for a while', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const [bob, mallory] = [await party(v), await party(v)];
    const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    const ask = await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
    const notes = [];
    for (let i = 0; i < 4; i++)
      notes.push(await mallory.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE)));
    for (const note of notes.slice(0, 3)) {
      const bid = await place(v, mallory, note);
      // Spent right behind the auction that matches it (held one slot): the mirror cannot know yet.
      await v.ledger.setFaults({ latencySlots: 1 });
      await v.ledger.sendTransaction({ transaction: await withdrawal(v, note) });
      await v.ledger.setFaults({ latencySlots: 0 });
      await settleUntil(v, has(mallory, bid, 'settlement_failed'), 'the lock refused');
      expect(orderEvents(mallory, bid).at(-1)).toMatchObject({ reason: 'note_spent' });
    }
    const r = await v.client.send('/orders', { token: mallory.token, body: mallory.trader.order(notes[3]!) });
    expect(r.status).toBe(429);
    expect(r.body.code).toBe(1401);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    // Bob's ask, whose lock held every time, still rests and is never throttled.
    expect((await v.client.send(`/orders/${ask}`, { token: bob.token })).body.status).toBe('pending');
  });
});
