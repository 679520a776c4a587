/**
 * Note management end to end through the SDK (see `e2e-venue.ts`) with real proofs: every
 * VALID_JOIN_SPLIT is proved by the SDK's prover and verified by the ledger with the real key,
 * every order's VALID_INPUT by the engine, every withdrawal's VALID_SPEND by the test's ledger
 * wrapper. Splits a deposit into notes that each back an order, fills two of them partially and
 * merges their change, refuses to split a note that backs a live order (a partial fill's change is
 * free on chain, reserved by the engine for the remainder), recovers every output from the seed, places a five-level ladder from one
 * deposit with a single split, and withdraws an arbitrary amount.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProverInputError } from '@nightjar/circuits';
import { feeOn, parseAddress, requiredCollateral } from '@nightjar/protocol';
import {
  cancelOrder,
  createWallet,
  deposit,
  mergeCandidates,
  mergeNotes,
  placeOrder,
  placeOrders,
  splitNote,
  syncWallet,
  withdraw,
  type JoinSplitProgress,
  type Wallet,
} from '../src/index.js';
import { noteWitness } from '../src/notes/note-witness.js';
import { SYMBOL, kinds, storedFills, unspent, useE2eVenue } from './e2e-venue.js';
import { advanceUntil } from '@nightjar/testkit';
import { freshAddress } from './helpers.js';
import {
  NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS,
  NIGHTJAR_ERROR__NOTE_NOT_FREE,
  isNightjarError,
} from '../src/index.js';

const venue = useE2eVenue();

/** Every note of a wallet with what recovery must restore: amount, origin, state, commitment. */
const notesOf = (w: Wallet) =>
  [...w.notes.values()].map((n) => `${n.mint}:${n.amount}:${n.origin}:${n.state}:${n.commitment}`).sort();

describe('SDK end to end: splits and merges with real proofs', () => {
  it('split a deposit, back an order with each note, fill two partially, refuse to split a locked note, merge the change, recover it all from the seed', async () => {
    const { v, airdrop, dir, connect, party, finalize, settleUntil, joinSplitVerdicts, sent } = venue();
    const alice = await party('alice-notes');
    const bob = await party('bob-notes');
    const inst = await alice.client.instrument(SYMBOL);
    const { base_mint: SOL, quote_mint: USDC } = inst;
    const ONE = 10n ** BigInt(inst.base_decimals);
    const price = (p: bigint) => p * 10n ** BigInt(inst.quote_decimals);
    const bidNeed = (q: bigint, p: bigint) => requiredCollateral('bid', q * ONE, price(p), inst);
    // Finalizing as a split lands ends the SDK's wait for the venue's tree (the clock is manual).
    const onProgress = (p: JoinSplitProgress) => void (p.stage === 'landed' && finalize());

    const needs = [bidNeed(2n, 150n), bidNeed(2n, 149n), bidNeed(1n, 148n)];
    const total = needs.reduce((s, n) => s + n, 0n);
    await airdrop(alice.wallet, USDC, total);
    const askNeed = requiredCollateral('ask', ONE, 0n, inst);
    await airdrop(bob.wallet, SOL, 2n * askNeed);
    const dep = await deposit(alice.client, { mint: USDC, amount: total, wait: 'landed' });
    for (let i = 0; i < 2; i++) await deposit(bob.client, { mint: SOL, amount: askNeed, wait: 'landed' });
    await finalize();

    // One deposit, three notes (no remainder), each backing its own order.
    const split = await splitNote(alice.client, { mint: USDC, amounts: needs, onProgress });
    expect(split.spent.map((n) => n.commitment)).toEqual([dep.note.commitment]);
    expect(split.notes.map((n) => n.amount)).toEqual(needs);
    expect(joinSplitVerdicts).toEqual([true]);
    const [bidA, bidB, bidC] = [
      await placeOrder(alice.client, {
        symbol: SYMBOL,
        side: 'bid',
        amount: '2',
        price: '150',
        note: split.notes[0]!.commitment,
      }),
      await placeOrder(alice.client, {
        symbol: SYMBOL,
        side: 'bid',
        amount: '2',
        price: '149',
        note: split.notes[1]!.commitment,
      }),
      await placeOrder(alice.client, {
        symbol: SYMBOL,
        side: 'bid',
        amount: '1',
        price: '148',
        note: split.notes[2]!.commitment,
      }),
    ];
    for (const [i, bid] of [bidA, bidB, bidC].entries()) {
      expect(bid.status).toBe('accepted');
      expect(bid.body.collateral_amount).toBeUndefined(); // an exact note each
      expect(bid.noteCommitment).toBe(split.notes[i]!.commitment);
    }

    // Bob sells 1 SOL at 150: bid A fills in part; its change note backs A's remainder.
    await placeOrder(bob.client, { symbol: SYMBOL, side: 'ask', amount: '1', price: '150' });
    await settleUntil(
      () => kinds(alice, bidA.orderId).includes('partially_filled') && storedFills(alice, bidA.orderId) === 1,
      'bid A partially filled',
    );
    await finalize();
    const changeA = alice.wallet.notes.get(alice.wallet.orders.get(bidA.orderId)!.noteCommitment)!;
    expect(changeA.origin).toBe('change');
    // Not locked on chain (no relock, so its fills do not chain): the engine keeps it reserved.
    expect((await v.ledger.getNoteStatus({ nullifier: changeA.nullifier })).state).toBe('free');

    // The SDK does not offer a note that backs a live order: refused before proving, nothing sent.
    const sentBefore = sent.length;
    const refused = await splitNote(alice.client, {
      mint: USDC,
      commitment: changeA.commitment,
      into: 2,
    }).catch((e: unknown) => e);
    expect(isNightjarError(refused, NIGHTJAR_ERROR__NOTE_NOT_FREE)).toBe(true);
    expect(refused).toMatchObject({ context: { reason: 'order', commitment: changeA.commitment } });
    expect(sent.length).toBe(sentBefore);
    expect(joinSplitVerdicts).toEqual([true]); // only the first split's proof

    // Cancel A (the engine releases its lock); Bob sells 1 SOL at 149: bid B fills in part.
    await cancelOrder(alice.client, { orderId: bidA.orderId });
    await placeOrder(bob.client, { symbol: SYMBOL, side: 'ask', amount: '1', price: '149' });
    await settleUntil(
      () => kinds(alice, bidB.orderId).includes('partially_filled') && storedFills(alice, bidB.orderId) === 1,
      'bid B partially filled',
    );
    const changeB = alice.wallet.notes.get(alice.wallet.orders.get(bidB.orderId)!.noteCommitment)!;
    await cancelOrder(alice.client, { orderId: bidB.orderId });
    // Both change notes free on the ledger (the releases landed) and in the venue's tree.
    await advanceUntil(
      v,
      async () =>
        (await v.ledger.getNoteStatuses({ nullifiers: [changeA.nullifier, changeB.nullifier] })).every(
          (s) => s.state === 'free',
        ),
      'the locks released',
    );
    await finalize();
    await syncWallet(alice.client);

    // The change notes merge into one, to the unit.
    const quote = (q: bigint, p: bigint) => (q * ONE * price(p)) / inst.price_scale;
    const expectedA = needs[0]! - quote(1n, 150n) - feeOn(quote(1n, 150n), inst.fee_bps);
    const expectedB = needs[1]! - quote(1n, 149n) - feeOn(quote(1n, 149n), inst.fee_bps);
    expect([changeA.amount, changeB.amount]).toEqual([expectedA, expectedB]);
    const candidates = mergeCandidates(alice.client, { mint: USDC });
    expect(candidates.map((n) => n.commitment).sort()).toEqual(
      [changeA.commitment, changeB.commitment].sort(),
    );
    const merged = await mergeNotes(alice.client, { mint: USDC, onProgress });
    expect(merged.note.amount).toBe(expectedA + expectedB);
    expect(merged.spent.map((n) => n.state)).toEqual(['spent', 'spent']);
    expect(joinSplitVerdicts).toEqual([true, true]);
    expect(alice.wallet.balances()[USDC]).toEqual({
      available: expectedA + expectedB,
      locked: needs[2]!, // bid C rests on the third split output
      pendingSettlement: 0n,
      pending: 0n,
    });
    expect(alice.wallet.balances()[SOL]?.available).toBe(2n * ONE);

    // A wallet rebuilt from the seed alone finds the split outputs, the change, the trade-outs and
    // the merged note, each with its amount and its state on the ledger.
    await syncWallet(alice.client);
    const recovered = createWallet({ seed: alice.wallet.seed });
    const rc = await connect(recovered, alice.credentials, join(dir, 'alice-notes-recovered'));
    try {
      await syncWallet(rc);
      expect(notesOf(recovered)).toEqual(notesOf(alice.wallet));
      expect(unspent(recovered)).toEqual(unspent(alice.wallet));
      const outputs = split.notes.map((n) => recovered.notes.get(n.commitment)?.state);
      expect(outputs).toEqual(['spent', 'spent', 'free']); // A and B consumed by fills; C rests
      expect(recovered.notes.get(merged.note.commitment)).toMatchObject({
        amount: expectedA + expectedB,
        origin: 'join_split',
        state: 'free',
      });
    } finally {
      await rc.close();
    }
    await cancelOrder(alice.client, { orderId: bidC.orderId });
    await Promise.all([alice.stream.close(), bob.stream.close()]);
    await Promise.all([alice.client.close(), bob.client.close()]);
  }, 240_000);

  it('a five-level ladder from one deposit with a single split; more out than in is refused with nothing sent; any amount withdraws exactly', async () => {
    const { airdrop, v, party, finalize, joinSplitVerdicts, sent, withdrawals } = venue();
    const carol = await party('carol-notes');
    const inst = await carol.client.instrument(SYMBOL);
    const USDC = inst.quote_mint;
    const ONE = 10n ** BigInt(inst.base_decimals);
    const prices = ['150', '149', '148', '147', '146'];
    const needs = prices.map((p) =>
      requiredCollateral('bid', ONE, BigInt(p) * 10n ** BigInt(inst.quote_decimals), inst),
    );
    const spare = 12_345_678n;
    const total = needs.reduce((s, n) => s + n, 0n) + spare;
    await airdrop(carol.wallet, USDC, total);
    const dep = await deposit(carol.client, { mint: USDC, amount: total, wait: 'landed' });
    await finalize();
    const verdictsBefore = joinSplitVerdicts.length;

    const stages: string[] = [];
    const { results, splits } = await placeOrders(carol.client, {
      orders: prices.map((price) => ({ symbol: SYMBOL, side: 'bid' as const, amount: '1', price })),
      onProgress: (p) => {
        stages.push(p.stage);
        if (p.stage === 'landed') void finalize();
      },
    });
    expect(results.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success', 'success']);
    expect(splits).toHaveLength(1);
    expect(splits[0]!.spent.map((n) => n.commitment)).toEqual([dep.note.commitment]);
    expect(splits[0]!.notes.map((n) => n.amount)).toEqual([...needs, spare]);
    const bodies = results.flatMap((r) => (r.status === 'success' ? [r.result.body] : []));
    expect(bodies.map((b) => b.collateral_amount)).toEqual(needs.map(() => undefined));
    expect(bodies.map((b) => b.note_commitment)).toEqual(
      splits[0]!.notes.slice(0, 5).map((n) => n.commitment),
    );
    expect(bodies.map((b) => b.arrival_nonce)).toEqual([1n, 2n, 3n, 4n, 5n]); // sent in ladder order
    expect(stages).toEqual([
      'proving',
      'sending',
      'landed',
      'usable',
      'placed',
      'placed',
      'placed',
      'placed',
      'placed',
    ]);
    expect(joinSplitVerdicts.slice(verdictsBefore)).toEqual([true]);

    // More out than in: refused before anything is proved or sent, by the SDK and by the prover.
    const [spareNote] = carol.wallet.freeNotes(USDC);
    expect(spareNote?.amount).toBe(spare);
    const sentBefore = sent.length;
    const over = await splitNote(carol.client, {
      mint: USDC,
      commitment: spareNote!.commitment,
      amounts: [spare, 1n],
    }).catch((e: unknown) => e);
    expect(isNightjarError(over, NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS)).toBe(true);
    const w = await noteWitness(carol.client, spareNote!);
    await expect(
      carol.client.prover().proveValidJoinSplit({
        spendingKey: carol.wallet.keys.spendingKey,
        mint: parseAddress(USDC)!,
        inputs: [{ amount: spare, noteInnerHash: w.note.noteInnerHash, path: w.path }],
        outputAmounts: [spare + 1n],
        outputTreeIds: [spareNote!.treeId],
        memo: new Uint8Array(177),
      }),
    ).rejects.toBeInstanceOf(ProverInputError);
    expect(sent.length).toBe(sentBefore);
    expect(carol.wallet.notes.get(spareNote!.commitment)?.state).toBe('free');

    // Withdraw an amount no note holds: one transaction, a real VALID_SPEND v2 proof with change,
    // signed by a one-time key; paid exactly, the rest a free change note.
    const amount = 2_345_678n;
    const to = freshAddress();
    const sentBeforeWithdraw = sent.length;
    const out = await withdraw(carol.client, { mint: USDC, amount, recipient: to });
    expect(sent.slice(sentBeforeWithdraw).map((t) => t.instruction.name)).toEqual(['withdraw']);
    expect(sent.at(-1)!.signer).not.toBe(carol.wallet.keys.funding.address);
    expect(out.note.amount).toBe(spare);
    expect(out.change?.amount).toBe(spare - amount);
    expect(await v.ledger.getBalance({ owner: to, mint: USDC })).toBe(amount.toString());
    expect(withdrawals.at(-1)).toBe(true);
    expect(carol.wallet.freeNotes(USDC).map((n) => n.amount)).toEqual([spare - amount]);
    expect(joinSplitVerdicts.slice(verdictsBefore)).toEqual([true]);

    for (const r of results)
      if (r.status === 'success') await cancelOrder(carol.client, { orderId: r.result.orderId });
    await carol.stream.close();
    await carol.client.close();
  }, 240_000);
});
