/**
 * Settlement end to end: orders over HTTPS, events and memos over the WebSocket, the in-process
 * dev ledger (manual clock) with fault injection. Every effect is checked where a client sees it:
 * the stream, the order lookup, the status record, and the ledger (note status by nullifier, memos,
 * solvency).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decryptFillMemo, deriveNote, noteNullifier } from '@nightjar/crypto';
import { bytesToHex, hexToBytes, parseAddress, fieldToHex } from '@nightjar/protocol';
import { RpcError, RPC_ERRORS, type LedgerClient } from '@nightjar/ledger';
import { login, SOL, startTestVenue, Trader, USDC, type TestVenue } from '@nightjar/testkit';

import {
  expectSolvent,
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
  withdrawal,
} from './venue-helpers.js';

let venue: TestVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

describe('settlement', () => {
  it('a full fill: confirmed on the ledger, fully_filled with batch_id, memos that rebuild the notes', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const [alice, bob] = [await party(v), await party(v)];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL); // more than needed: a change note
    const bid = await place(v, alice, usdc);
    const ask = await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
    expect(v.engine.context.settlement.state).toBe('wired');

    await settleUntil(
      v,
      () => has(alice, bid, 'fully_filled')() && has(bob, ask, 'fully_filled')(),
      'full fill',
    );
    expect(kinds(alice, bid)).toEqual(['pending_settlement', 'fully_filled']);
    const [pending, filled] = orderEvents(alice, bid);
    expect(pending).toMatchObject({ market_id: expect.any(String), match_id: '1' });
    expect(typeof pending!.batch_id).toBe('number');
    expect(typeof pending!.lock_expiry_slot).toBe('number');
    expect(filled).toMatchObject({
      filled_quantity: Number(ONE_SOL),
      batch_id: pending!.batch_id,
      match_id: '1',
    });
    expect(typeof filled!.server_time_ms).toBe('number');

    // The lookup reads empty with the whole amount filled.
    const look = await v.client.send(`/orders/${bid}`, { token: alice.token });
    expect(look.body).toMatchObject({ status: 'empty', filled_quantity: Number(ONE_SOL) });

    // The status record.
    const st = await v.client.send(`/settlement/status/${pending!.batch_id}`, { token: alice.token });
    expect(st.status).toBe(200);
    expect(st.body.jobs).toHaveLength(1);
    expect(st.body.jobs[0]).toMatchObject({
      match_idx: 0,
      match_id: '1',
      stage: 'done',
      outcome: 'confirmed',
    });
    expect(st.body.jobs[0].settle_signature).toMatch(/^[0-9a-f]{128}$/);
    expect((await v.client.send('/settlement/status/999999', { token: alice.token })).status).toBe(404);

    // Inputs spent on the ledger; solvency holds.
    expect(await noteState(v, nullifierOf(usdc))).toBe('spent');
    expect(await noteState(v, nullifierOf(sol))).toBe('spent');
    await expectSolvent(v);

    // Fill memos: pushed on `fills` and stored on the ledger; each decrypts with the viewing key
    // and its outputs recompute to commitments that are leaves of the tree.
    const bobFill = bob.stream.events('fills').find((f) => f.order_id === ask)!;
    expect(bobFill).toMatchObject({
      outcome: 'confirmed',
      match_id: '1',
      batch_id: pending!.batch_id,
      tree_id: 0,
    });
    const memo = decryptFillMemo(bob.trader.viewing.privateKey, hexToBytes(bobFill.memo));
    expect(bytesToHex(memo.orderId)).toBe(ask);
    const quote = (ONE_SOL * PRICE) / 1_000_000_000n;
    expect(memo.tradeAmount).toBe(quote);
    expect(memo.feeAmount).toBe((ONE_SOL * 10n) / 10_000n);
    expect(memo.changeAmount).toBe(2n * ONE_SOL - ONE_SOL - memo.feeAmount);
    const stored = await v.ledger.getMemos({ from: 0, to: 100 });
    expect(stored.memos.map((m) => m.memo)).toContain(bobFill.memo);
    const leaves = (await v.ledger.getLeaves({ tree_id: 0, from: 0, to: 10_000 })).leaves.map((l) => l.value);
    const bobOwner = BigInt('0x' + sol.ownerCommitment);
    const tradeOut = deriveNote({
      mint: parseAddress(USDC)!,
      amount: memo.tradeAmount,
      ownerCommitment: bobOwner,
      noteInnerHash: memo.outputInners[0]!,
    });
    expect(leaves).toContain(fieldToHex(tradeOut.noteCommitment));
    const change = deriveNote({
      mint: parseAddress(SOL)!,
      amount: memo.changeAmount,
      ownerCommitment: bobOwner,
      noteInnerHash: memo.outputInners[1]!,
    });
    expect(leaves).toContain(fieldToHex(change.noteCommitment));
    // The change note is free (the order ended), so its owner can spend it.
    expect(await noteState(v, fieldToHex(noteNullifier(change.noteCommitment, memo.outputInners[1]!)))).toBe(
      'free',
    );

    const metrics = await v.client.send('/admin/metrics/settlement', {
      token: await login(v.client, v.admin),
    });
    expect(metrics.body.counters.matches_confirmed).toBe(1);
    expect(JSON.stringify(metrics.body)).not.toContain(ask);
  });

  it('a partial fill: the change note is not relocked; the remainder continues to a full fill on it', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const [alice, bob, carol] = [await party(v), await party(v), await party(v)];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', 3n * ONE_SOL, PRICE));
    const sol1 = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    const bid = await place(v, alice, usdc, { amount: 3n * ONE_SOL });
    const ask1 = await place(v, bob, sol1, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'partially_filled'), 'partial fill');
    const partial = orderEvents(alice, bid).find((f) => f.kind === 'partially_filled')!;
    expect(partial).toMatchObject({ filled_quantity: Number(ONE_SOL), new_amount: Number(2n * ONE_SOL) });
    const fill1 = alice.stream.events('fills').find((f) => f.order_id === bid)!;
    const memo1 = decryptFillMemo(alice.trader.viewing.privateKey, hexToBytes(fill1.memo));
    expect(memo1.changeAmount).toBe(BigInt(partial.new_note_amount));
    const look = await v.client.send(`/orders/${bid}`, { token: alice.token });
    expect(look.body).toMatchObject({ status: 'pending', filled_quantity: Number(ONE_SOL) });
    // The original input is spent; the change note is NOT locked on the ledger (no relock: its
    // nullifier would sit beside its commitment and chain the fills), only reserved by the engine.
    const changeNote = deriveNote({
      mint: parseAddress(USDC)!,
      amount: memo1.changeAmount,
      ownerCommitment: BigInt('0x' + usdc.ownerCommitment),
      noteInnerHash: memo1.outputInners[1]!,
    });
    const changeNullifier = fieldToHex(noteNullifier(changeNote.noteCommitment, memo1.outputInners[1]!));
    expect(await noteState(v, nullifierOf(usdc))).toBe('spent');
    expect(await noteState(v, changeNullifier)).toBe('free');
    expect(kinds(bob, ask1)).toEqual(['pending_settlement', 'fully_filled']);

    // The remainder trades on: no new client proof; the engine locks the change note (VALID_LOCK).
    const sol2 = await carol.trader.deposit(SOL, 2n * ONE_SOL + ONE_SOL);
    const ask2 = await place(v, carol, sol2, { amount: 2n * ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'fully_filled'), 'continuation');
    expect(kinds(alice, bid)).toEqual([
      'pending_settlement',
      'partially_filled',
      'pending_settlement',
      'fully_filled',
    ]);
    expect(orderEvents(alice, bid).at(-1)).toMatchObject({ filled_quantity: Number(3n * ONE_SOL) });
    expect(kinds(carol, ask2)).toEqual(['pending_settlement', 'fully_filled']);
    expect(await noteState(v, changeNullifier)).toBe('spent');
    await expectSolvent(v);
  });

  it('a failed lock: settlement_failed with a reason for that order; the other order rests again', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const [alice, bob, carol] = [await party(v), await party(v), await party(v)];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const bad = await bob.trader.deposit(SOL, ONE_SOL + ONE_SOL);
    const bid = await place(v, alice, usdc);
    const ask = await place(v, bob, bad, { amount: ONE_SOL, price_limit: PRICE });
    // Bob's note is spent on the ledger after the auction matched it but before the match locks it
    // (a withdrawal held one slot, so that it lands right behind the slot's auction; the test
    // ledger accepts any proof): its lock fails. (Spent before the auction, the order leaves the book instead: intake-note-state.test.ts.)
    const withdraw = await withdrawal(v, bad);
    await v.ledger.setFaults({ latencySlots: 1 });
    await v.ledger.sendTransaction({ transaction: withdraw });
    await v.ledger.setFaults({ latencySlots: 0 });
    await settleUntil(v, has(bob, ask, 'settlement_failed'), 'rejection');
    expect((await v.ledger.getTransaction({ signature: withdraw.signature }))?.err).toBeFalsy();
    const failed = orderEvents(bob, ask).at(-1)!;
    expect(failed).toMatchObject({ reason: 'note_spent', match_id: '1' });
    expect(typeof failed.lock_expiry_slot).toBe('number');
    expect((await v.client.send(`/orders/${ask}`, { token: bob.token })).status).toBe(404);
    // Alice's order is matchable again: its lock was released, the next match locks it afresh.
    expect((await v.client.send(`/orders/${bid}`, { token: alice.token })).body.status).toBe('pending');
    const sol = await carol.trader.deposit(SOL, 2n * ONE_SOL);
    const ask2 = await place(v, carol, sol, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'fully_filled'), 'second match');
    expect(kinds(carol, ask2)).toEqual(['pending_settlement', 'fully_filled']);
    await expectSolvent(v);
  });

  it('a ledger refusing every transaction: both orders settlement_failed (ledger_unavailable), nothing consumed', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const [alice, bob] = [await party(v), await party(v)];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    await v.ledger.setFaults({ rejectRate: 1 });
    const bid = await place(v, alice, usdc);
    const ask = await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(
      v,
      () => has(alice, bid, 'settlement_failed')() && has(bob, ask, 'settlement_failed')(),
      'rejection',
    );
    expect(orderEvents(alice, bid).at(-1)).toMatchObject({ reason: 'ledger_unavailable' });
    await v.ledger.setFaults({ rejectRate: 0 });
    expect(await noteState(v, nullifierOf(usdc))).toBe('free');
    expect(await noteState(v, nullifierOf(sol))).toBe('free');
  });

  it('dropped replies whose transactions landed are reconciled to confirmed', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const [alice, bob] = [await party(v), await party(v)];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    await v.ledger.setFaults({ dropRate: 1 });
    const bid = await place(v, alice, usdc);
    const ask = await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(
      v,
      () => has(alice, bid, 'fully_filled')() && has(bob, ask, 'fully_filled')(),
      'confirmation',
    );
    await v.ledger.setFaults({ dropRate: 0 });
    const m = (v.engine.context.settlement.metricsSnapshot?.() ?? {}) as { counters: Record<string, number> };
    expect(m.counters.matches_ambiguous).toBeGreaterThan(0);
    expect(await noteState(v, nullifierOf(sol))).toBe('spent');
    await expectSolvent(v);
  });

  it('a dropped reply whose transaction never landed: rebroadcast, then confirmed', async () => {
    let dropped = 0;
    const v = (venue = await startTestVenue({
      settle: true,
      ledgerWrap: (l: LedgerClient) =>
        new Proxy(l, {
          get(target, prop, recv) {
            if (prop === 'sendTransaction')
              return async (p: Parameters<LedgerClient['sendTransaction']>[0]) => {
                if (p.transaction.instruction.name === 'settle_batch' && dropped === 0) {
                  dropped += 1; // lost on the way: never reaches the ledger
                  throw new RpcError(RPC_ERRORS.nodeTimeout, 'no response');
                }
                return target.sendTransaction(p);
              };
            const value = Reflect.get(target, prop, recv) as unknown;
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }),
    }));
    const [alice, bob] = [await party(v), await party(v)];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    const bid = await place(v, alice, usdc);
    await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'fully_filled'), 'confirmation after rebroadcast');
    expect(dropped).toBe(1);
    await expectSolvent(v);
  });

  it('a ledger outage mid-batch: the match waits, then confirms once the ledger is back', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const [alice, bob] = [await party(v), await party(v)];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    const bid = await place(v, alice, usdc);
    await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'pending_settlement'), 'match');
    await v.ledger.setFaults({ outage: true });
    await new Promise((r) => setTimeout(r, 800));
    expect(kinds(alice, bid)).toEqual(['pending_settlement']);
    await v.ledger.setFaults({ outage: false });
    await settleUntil(v, has(alice, bid, 'fully_filled'), 'confirmation after the outage');
    await expectSolvent(v);
  });

  it('/transparency and /admin/drain report settlement', async () => {
    const v = (venue = await startTestVenue({ settle: true }));
    const t = await v.client.send('/transparency');
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({
      slot: expect.any(Number),
      orders: { resting: 0, pending_settlement: 0 },
      settlement: { batches: 0, confirmed_matches: 0, rejected_matches: 0 },
    });
    expect(t.body.engine.tee_keys).toHaveLength(1);
    expect(t.body.shards.length).toBeGreaterThan(0);
    for (const m of t.body.mints) expect(m.vault_balance).toBe(m.outstanding_note_value);
    const adminToken = await login(v.client, v.admin);
    const d = await v.client.send('/admin/drain', { token: adminToken });
    expect(d.body).toMatchObject({ in_flight_settlements: 0, safe_to_stop: true });
    expect((await v.client.send('/system/status')).body.settlement).toBe('wired');
  });
});
