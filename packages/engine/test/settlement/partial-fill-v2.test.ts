/**
 * Partial fills in settlement v2 (DESIGN 6 "Partial fills"): the change note of a partially filled
 * order is not relocked on chain (it reads `free`), the engine keeps it reserved for the remainder
 * and proves VALID_LOCK for it as soon as its settlement confirms, so the remainder's next match
 * locks it with the engine's proof and settles with no wait for finality. Over HTTPS and the
 * stream, on the in-process dev ledger with a manual clock (slots are counted, not timed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decryptFillMemo, deriveNote, noteNullifier } from '@nightjar/crypto';
import { bytesToHex, fieldToHex, hexToBytes, parseAddress } from '@nightjar/protocol';
import { COMMITMENT_LAG } from '@nightjar/ledger';
import {
  login,
  SOL,
  startTestVenue,
  Trader,
  USDC,
  FAKE_LOCK_PROOF,
  stubMatchProver,
} from '@nightjar/testkit';
import type { Note, TestVenue, StubMatchProver } from '@nightjar/testkit';
import {
  expectSolvent,
  has,
  kinds,
  noteState,
  ONE_SOL,
  orderEvents,
  party,
  place,
  PRICE,
  settleUntil,
  spendNote,
} from './venue-helpers.js';

let venue: TestVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

/** Alice's bid for 3 SOL, partially filled (1 SOL) by Bob's ask; its change note. */
async function partiallyFilled(v: TestVenue) {
  const [alice, bob] = [await party(v), await party(v)];
  const usdc: Note = await alice.trader.deposit(USDC, Trader.required('bid', 3n * ONE_SOL, PRICE));
  const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
  const bid = await place(v, alice, usdc, { amount: 3n * ONE_SOL });
  await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
  await settleUntil(v, has(alice, bid, 'partially_filled'), 'partial fill');
  const filledAt = v.ledger.clock.current;
  const fill = alice.stream.events('fills').find((f) => f.order_id === bid)!;
  const memo = decryptFillMemo(alice.trader.viewing.privateKey, hexToBytes(fill.memo));
  // Every memo carries the three output inners now (zero-value outputs exist too).
  expect(memo.outputInners).toHaveLength(3);
  const d = deriveNote({
    mint: parseAddress(USDC)!,
    amount: memo.changeAmount,
    ownerCommitment: BigInt('0x' + usdc.ownerCommitment),
    noteInnerHash: memo.outputInners[1]!,
  });
  const change: Note = {
    ...usdc,
    amount: memo.changeAmount,
    innerHash: fieldToHex(memo.outputInners[1]!),
    commitment: fieldToHex(d.noteCommitment),
  };
  const changeNullifier = fieldToHex(noteNullifier(d.noteCommitment, memo.outputInners[1]!));
  return { alice, bid, change, changeNullifier, filledAt };
}

async function counters(v: TestVenue): Promise<Record<string, number>> {
  const token = await login(v.client, v.admin);
  return (await v.client.send('/admin/metrics/settlement', { token })).body.counters;
}

describe('partial fills without a relock', () => {
  it("the second match locks the change note with the engine's VALID_LOCK and settles before finality", async () => {
    const prover: StubMatchProver = stubMatchProver();
    const v = (venue = await startTestVenue({ settle: true, matchProver: prover }));
    const { alice, bid, change, changeNullifier, filledAt } = await partiallyFilled(v);
    // Not locked on chain: the engine only reserves it for the remainder.
    expect(await noteState(v, changeNullifier)).toBe('free');

    const carol = await party(v);
    const sol = await carol.trader.deposit(SOL, 2n * ONE_SOL + ONE_SOL);
    const ask = await place(v, carol, sol, { amount: 2n * ONE_SOL, price_limit: PRICE });
    const before = v.ledger.clock.current;
    await settleUntil(v, has(alice, bid, 'fully_filled'), 'the remainder to fill');
    // No wait for the change leaf to finalize (31 slots): the lock proof named a root ahead of
    // the engine's finalized mirror. (Carol's deposit waited for finality on its own, before.)
    const slots = v.ledger.clock.current - before;
    expect(slots).toBeLessThan(COMMITMENT_LAG.finalized);
    expect(kinds(carol, ask)).toEqual(['pending_settlement', 'fully_filled']);
    expect(orderEvents(alice, bid).at(-1)).toMatchObject({ filled_quantity: Number(3n * ONE_SOL) });

    // The engine proved VALID_LOCK once, for the change note and the remainder's terms (2 SOL left).
    expect(prover.lockCalls).toHaveLength(1);
    const lock = prover.lockCalls[0]!;
    expect(lock.amount).toBe(change.amount);
    expect(lock.remainder.amount).toBe(2n * ONE_SOL);
    expect(fieldToHex(lock.parentInner)).not.toBe(change.innerHash);
    expect(await noteState(v, changeNullifier)).toBe('spent');
    expect(await counters(v)).toMatchObject({
      lock_proofs_made: 1,
      lock_proofs_failed: 0,
      matches_confirmed: 2,
    });

    // On chain: the change note's lock entry carries that proof, and a root the finalized mirror
    // did not have when it was made (the change leaf's own settlement's root).
    await v.advance(COMMITMENT_LAG.finalized + 1);
    let entry: Record<string, unknown> | undefined;
    for (let slot = filledAt; slot <= v.ledger.clock.current - COMMITMENT_LAG.finalized && !entry; slot++) {
      const block = await v.ledger.getBlock({ slot });
      for (const tx of block.transactions)
        if (tx.instruction.name === 'lock_notes')
          entry ??= (tx.instruction.args as { locks: Record<string, unknown>[] }).locks.find(
            (l) => l.nullifier === changeNullifier,
          );
    }
    expect(entry).toMatchObject({
      proof: bytesToHex(FAKE_LOCK_PROOF),
      merkle_root: fieldToHex(lock.merkleRoot!),
    });
    await expectSolvent(v);
  });

  it('a change note whose VALID_LOCK cannot be made is never locked: the remainder ends, its counterparty rests', async () => {
    const prover = stubMatchProver();
    prover.failLocks();
    const v = (venue = await startTestVenue({ settle: true, matchProver: prover }));
    const { alice, bid, changeNullifier, filledAt } = await partiallyFilled(v);
    const carol = await party(v);
    const sol = await carol.trader.deposit(SOL, 2n * ONE_SOL + ONE_SOL);
    const ask = await place(v, carol, sol, { amount: 2n * ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'settlement_failed'), 'the remainder to end');
    expect(orderEvents(alice, bid).at(-1)).toMatchObject({
      kind: 'settlement_failed',
      reason: 'lock_rejected',
    });
    expect(prover.lockCalls).toHaveLength(1);
    expect(await noteState(v, changeNullifier)).toBe('free');
    // Carol's lock held; her order rests again (its lock released) and nothing of hers was spent.
    expect((await v.client.send(`/orders/${ask}`, { token: carol.token })).body.status).toBe('pending');
    await v.advance(COMMITMENT_LAG.finalized + 1);
    for (let slot = filledAt; slot <= v.ledger.clock.current - COMMITMENT_LAG.finalized; slot++)
      for (const tx of (await v.ledger.getBlock({ slot })).transactions)
        if (tx.instruction.name === 'lock_notes')
          expect(JSON.stringify(tx.instruction.args)).not.toContain(changeNullifier);
    expect((await counters(v)).lock_proofs_failed).toBe(1);
    await expectSolvent(v);
  });

  it('a cancelled remainder leaves its change note free at once: there is no lock to release', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const { alice, bid, changeNullifier } = await partiallyFilled(v);
    const cancel = await v.client.send(`/orders/${bid}`, {
      method: 'DELETE',
      token: alice.token,
      body: alice.trader.cancelBody(bid),
    });
    expect(cancel.status, cancel.text).toBe(200);
    await alice.stream.until(has(alice, bid, 'cancelled'), 'the cancelled event');
    expect(await noteState(v, changeNullifier)).toBe('free');
    expect((await counters(v)).release_transactions).toBe(0);
  });

  it('the owner spends the change note meanwhile: the remainder ends (note_spent), nothing else is touched', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const { alice, bid, change, changeNullifier } = await partiallyFilled(v);
    await spendNote(v, change);
    expect(await noteState(v, changeNullifier)).toBe('spent');
    const carol = await party(v);
    const sol = await carol.trader.deposit(SOL, 2n * ONE_SOL + ONE_SOL);
    const ask = await place(v, carol, sol, { amount: 2n * ONE_SOL, price_limit: PRICE });
    await settleUntil(
      v,
      () => orderEvents(alice, bid).some((e) => e.reason === 'note_spent'),
      'the remainder to end',
    );
    const end = orderEvents(alice, bid).at(-1)!;
    expect(['cancelled', 'settlement_failed']).toContain(end.kind);
    expect(end).toMatchObject({ reason: 'note_spent' });
    // Carol's ask did not settle against it; it rests (or was returned to the book).
    expect(kinds(carol, ask)).not.toContain('fully_filled');
    expect((await v.client.send(`/orders/${ask}`, { token: carol.token })).body.status).toBe('pending');
    await expectSolvent(v);
  });
});
