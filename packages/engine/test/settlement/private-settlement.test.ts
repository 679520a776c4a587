/**
 * What the engine puts on the ledger for a trade, and what a failed proof costs: every `lock_notes`
 * and `settle_batch` the engine sends is read back as sent, and nothing in it names an amount, a
 * price, an order id, an owner, an opening or an input note commitment; a match whose proof fails
 * is rejected alone, its batch's other match settles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerClient, Transaction } from '@nightjar/ledger';
import { SOL, startTestVenue, Trader, USDC, stubMatchProver } from '@nightjar/testkit';
import type { Note, TestVenue } from '@nightjar/testkit';
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
} from './venue-helpers.js';

let venue: TestVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

/** A venue whose ledger client records every transaction the engine sends. */
async function recordingVenue(options: Parameters<typeof startTestVenue>[0] = {}) {
  const sent: Transaction[] = [];
  const v = await startTestVenue({
    settle: true,
    ledgerWrap: (l: LedgerClient) =>
      new Proxy(l, {
        get(target, prop, recv) {
          if (prop === 'sendTransaction')
            return (p: Parameters<LedgerClient['sendTransaction']>[0]) => {
              sent.push(p.transaction);
              return target.sendTransaction(p);
            };
          const value = Reflect.get(target, prop, recv) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }),
    ...options,
  });
  return { v, sent };
}

/** Every key of a JSON value, at any depth. */
function keysOf(x: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(x)) for (const e of x) keysOf(e, into);
  else if (x && typeof x === 'object')
    for (const [k, e] of Object.entries(x)) {
      into.add(k);
      keysOf(e, into);
    }
  return into;
}

describe('private settlement', () => {
  it('locks and settlements carry no amount, order id, owner, opening or input commitment', async () => {
    const { v, sent } = await recordingVenue();
    venue = v;
    const [alice, bob] = [await party(v), await party(v)];
    // A partial fill of the bid: its change note stays unlocked (no relock, settlement v2).
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', 2n * ONE_SOL, PRICE));
    const sol = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    const bid = await place(v, alice, usdc, { amount: 2n * ONE_SOL, price_limit: PRICE });
    const ask = await place(v, bob, sol, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(
      v,
      () => has(alice, bid, 'partially_filled')() && has(bob, ask, 'fully_filled')(),
      'fill',
    );

    const ixs = sent.filter((t) => t.signer === v.engine.context.chain.teeKeys[0]).map((t) => t.instruction);
    const locks = ixs.filter((i) => i.name === 'lock_notes');
    const settles = ixs.filter((i) => i.name === 'settle_batch');
    expect([locks.length, settles.length]).toEqual([1, 1]);
    // A lock: shard, a root, nullifier, use tag, expiry and the lock proof (contract B.1).
    expect([...keysOf(locks[0]!.args)].sort()).toEqual(
      ['locks', 'tree_id', 'merkle_root', 'nullifier', 'use_tag', 'until_slot', 'proof'].sort(),
    );
    // A settlement: its inputs' nullifiers only, six outputs (shard, commitment), memos, proof.
    expect([...keysOf(settles[0]!.args)].sort()).toEqual(
      [
        'batch_id',
        'market_id',
        'settle_by_slot',
        'matches',
        'match_idx',
        'inputs',
        'nullifier',
        'outputs',
        'tree_id',
        'commitment',
        'memos',
        'proof',
      ].sort(),
    );
    // No value of the trade or its parties appears anywhere, in any field.
    const text = JSON.stringify(ixs.filter((i) => i.name !== 'release_lock'));
    const secrets = (n: Note) => [n.commitment, n.ownerCommitment, n.innerHash];
    for (const s of [bid, ask, ...secrets(usdc), ...secrets(sol)]) expect(text).not.toContain(s);
    const m = settles[0]!.args as {
      matches: { inputs: { nullifier: string }[]; outputs: { commitment: string }[] }[];
    };
    expect(m.matches[0]!.inputs.map((i) => i.nullifier)).toEqual([nullifierOf(usdc), nullifierOf(sol)]);
    // Bid: trade-out, change, fee; ask: trade-out, change, fee (zero-value ones too).
    expect(m.matches[0]!.outputs).toHaveLength(6);
    await expectSolvent(v);
  }, 30_000);

  it('a proof that fails rejects its match only; the other match of the batch settles', async () => {
    const prover = stubMatchProver();
    const { v } = await recordingVenue({ matchProver: prover });
    venue = v;
    const [alice, bob, carol, dave] = [await party(v), await party(v), await party(v), await party(v)];
    const half = ONE_SOL / 2n;
    const usdcA = await alice.trader.depositNow(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const solB = await bob.trader.depositNow(SOL, ONE_SOL + ONE_SOL / 1000n);
    const usdcC = await carol.trader.depositNow(USDC, Trader.required('bid', half, PRICE));
    const solD = await dave.trader.deposit(SOL, half + half / 1000n);
    // The proof of the half-size match fails.
    prover.failWhen((p) => p.quantity === half);
    const bidA = await place(v, alice, usdcA, { amount: ONE_SOL, price_limit: PRICE });
    const bidC = await place(v, carol, usdcC, { amount: half, price_limit: PRICE });
    const askB = await place(v, bob, solB, { amount: ONE_SOL, price_limit: PRICE });
    const askD = await place(v, dave, solD, { amount: half, price_limit: PRICE });
    await settleUntil(
      v,
      () =>
        has(alice, bidA, 'fully_filled')() &&
        has(bob, askB, 'fully_filled')() &&
        has(carol, bidC, 'settlement_failed')() &&
        has(dave, askD, 'settlement_failed')(),
      'one fill and one failure',
    );
    expect(kinds(carol, bidC)).toEqual(['pending_settlement', 'settlement_failed']);
    const batchId = orderEvents(carol, bidC)[0]!.batch_id as number;
    expect(orderEvents(alice, bidA)[0]!.batch_id).toBe(batchId);
    const status = v.engine.context.settlement.status?.(BigInt(batchId));
    const failed = status?.jobs.find((j) => j.outcome === 'rejected');
    expect(failed).toMatchObject({ stage: 'failed', reason: 'settlement_rejected' });
    expect(prover.calls.map((p) => p.quantity).sort((a, b) => (a < b ? -1 : 1))).toEqual([half, ONE_SOL]);
    expect(await noteState(v, nullifierOf(usdcA))).toBe('spent');
    expect(await noteState(v, nullifierOf(solB))).toBe('spent');
    // Nothing of the failed match was consumed.
    expect(await noteState(v, nullifierOf(usdcC))).not.toBe('spent');
    expect(await noteState(v, nullifierOf(solD))).not.toBe('spent');
    const m = v.engine.context.settlement.metricsSnapshot?.() as { counters: Record<string, number> };
    expect(m.counters).toMatchObject({ proofs_failed: 1, matches_confirmed: 1, matches_rejected: 1 });
    await expectSolvent(v);
  }, 30_000);
});
