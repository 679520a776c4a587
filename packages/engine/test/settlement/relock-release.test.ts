/**
 * A partially filled order rests on its change note, which the settlement re-locked to it until its
 * expiry + 150 slots (at most 4,500 ahead). When the order leaves the book the engine releases that
 * lock itself, so the owner's note reads `free` at once; and an order whose relock can no longer be
 * reused ends (`expired`) instead of being re-locked with the proof of the note it replaced.
 * Over HTTPS and the stream, on the in-process dev ledger with a manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decryptFillMemo, deriveNote, noteNullifier } from '@nightjar/crypto';
import { fieldToHex, hexToBytes, parseAddress } from '@nightjar/protocol';
import { login, SOL, startTestVenue, Trader, USDC, type Note, type TestVenue } from '../harness.js';
import {
  kinds,
  noteState,
  ONE_SOL,
  orderEvents,
  party,
  place,
  PRICE,
  settleUntil,
  has,
} from './venue-helpers.js';

let venue: TestVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

/** Alice's bid for 3 SOL, partially filled (1 SOL) by Bob's ask; its change note's nullifier. */
async function partiallyFilled(v: TestVenue, fields: () => Parameters<Trader['order']>[1] = () => ({})) {
  const [alice, bob] = [await party(v), await party(v)];
  const usdc: Note = await alice.trader.deposit(USDC, Trader.required('bid', 3n * ONE_SOL, PRICE));
  const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
  const bid = await place(v, alice, usdc, { amount: 3n * ONE_SOL, ...fields() });
  await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
  await settleUntil(v, has(alice, bid, 'partially_filled'), 'partial fill');
  const fill = alice.stream.events('fills').find((f) => f.order_id === bid)!;
  const memo = decryptFillMemo(alice.trader.viewing.privateKey, hexToBytes(fill.memo));
  const change = deriveNote({
    mint: parseAddress(USDC)!,
    amount: memo.changeAmount,
    ownerCommitment: BigInt('0x' + usdc.ownerCommitment),
    noteInnerHash: memo.outputInners[1]!,
  });
  const changeNullifier = fieldToHex(noteNullifier(change.noteCommitment, memo.outputInners[1]!));
  const status = await v.ledger.getNoteStatus({ nullifier: changeNullifier });
  expect(status.state).toBe('locked');
  return { alice, bid, changeNullifier, lockedUntil: status.locked_until_slot! };
}

/** Steps the clock until the note reads `free`; returns how many slots that took. */
async function slotsUntilFree(v: TestVenue, nullifier: string): Promise<number> {
  let slots = 0;
  while ((await noteState(v, nullifier)) !== 'free') {
    if (slots > 10) throw new Error('the change note is still locked 10 slots after its order left');
    await v.advance(1);
    slots += 1;
  }
  return slots;
}

async function releases(v: TestVenue): Promise<number> {
  const token = await login(v.client, v.admin);
  return (await v.client.send('/admin/metrics/settlement', { token })).body.counters.release_transactions;
}

describe('the engine releases its own relock', () => {
  it('a cancelled remainder: its change note is free at once, not at expiry + 150 slots', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const { alice, bid, changeNullifier, lockedUntil } = await partiallyFilled(v);
    expect(lockedUntil - v.engine.context.chain.slot).toBeGreaterThan(1000);

    const cancel = await v.client.send(`/orders/${bid}`, {
      method: 'DELETE',
      token: alice.token,
      body: alice.trader.cancelBody(bid),
    });
    expect(cancel.status, cancel.text).toBe(200);
    await alice.stream.until(has(alice, bid, 'cancelled'), 'the cancelled event');
    expect(await slotsUntilFree(v, changeNullifier)).toBeLessThanOrEqual(3);
    expect(await releases(v)).toBe(1);
  });

  it('a remainder whose relock can no longer be reused ends expired, its note freed', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    // The longest lifetime: the relock is capped 4,500 slots after the fill, just past its expiry,
    // so the lock gets too short to reuse while the order could still be matched.
    let expiry = 0n;
    const { alice, bid, changeNullifier, lockedUntil } = await partiallyFilled(v, () => {
      expiry = BigInt(v.engine.context.chain.slot + 4500);
      return { expiry_slot: expiry };
    });
    expect(BigInt(lockedUntil)).toBeLessThan(expiry + 20n);

    const carol = await party(v);
    const sol = await carol.trader.deposit(SOL, 2n * ONE_SOL);

    // Up to just before the lock stops being reusable: the order still rests. A crossing ask
    // arrives; the next auction would have to lock the change note afresh, with no proof for it.
    await v.advance(lockedUntil - 41 - v.engine.context.chain.slot);
    await settleUntil(v, () => v.engine.context.chain.slot >= lockedUntil - 41, 'slot');
    expect((await v.client.send(`/orders/${bid}`, { token: alice.token })).body.status).toBe('pending');
    const ask = await place(v, carol, sol, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'expired'), 'the stale relock to end the order');
    expect(orderEvents(alice, bid).at(-1)).toMatchObject({
      kind: 'expired',
      filled_quantity: Number(ONE_SOL),
    });
    expect(kinds(alice, bid)).not.toContain('settlement_failed');
    expect((await v.client.send(`/orders/${bid}`, { token: alice.token })).body.status).toBe('expired');
    expect(BigInt(v.engine.context.chain.slot)).toBeLessThan(expiry - 20n);
    expect(await slotsUntilFree(v, changeNullifier)).toBeLessThanOrEqual(3);
    // The ask was never matched with it: it rests, untouched.
    expect(kinds(carol, ask)).toEqual([]);
    expect((await v.client.send(`/orders/${ask}`, { token: carol.token })).body.status).toBe('pending');
  }, 30_000);
});
