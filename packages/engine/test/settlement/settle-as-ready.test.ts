/**
 * Issue 29 item 5 in the engine: a tick's matches settle as their proofs complete (what is ready
 * goes out together) instead of waiting for the slowest proof of the tick; and a lock the ledger
 * refuses for its root (`UnknownRoot`) is proven again against another root, not failed. On the
 * in-process dev ledger with a manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ValidMatchV2Params } from '@nightjar/circuits';
import type { LedgerClient } from '@nightjar/ledger';
import { login, SOL, startTestVenue, Trader, USDC, type TestVenue, stubMatchProver } from '@nightjar/testkit';
import type { MatchProver } from '../../src/settlement/match-prover.js';
import { expectSolvent, has, kinds, ONE_SOL, party, place, PRICE, settleUntil } from './venue-helpers.js';

let venue: TestVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

async function counters(v: TestVenue): Promise<Record<string, number>> {
  const token = await login(v.client, v.admin);
  return (await v.client.send('/admin/metrics/settlement', { token })).body.counters;
}

describe('settlements as proofs complete', () => {
  it('the fast match of a tick settles while the slow one is still proving, each in its own settle_batch', async () => {
    const stub = stubMatchProver();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = 0;
    const slowFor = (p: ValidMatchV2Params) => p.quantity === 2n * ONE_SOL;
    const prover: MatchProver = {
      async prove(params, signal) {
        if (slowFor(params)) {
          held += 1;
          await gate;
        }
        return stub.prove(params, signal);
      },
      proveLock: (params, signal) => stub.proveLock(params, signal),
      close: async () => undefined,
    };
    const v = (venue = await startTestVenue({
      settle: true,
      matchProver: prover,
      matchProverConcurrency: 2,
    }));
    const [a1, b1, a2, b2] = [await party(v), await party(v), await party(v), await party(v)];
    const usdc1 = await a1.trader.deposit(USDC, Trader.required('bid', 2n * ONE_SOL, PRICE));
    const usdc2 = await a2.trader.deposit(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol1 = await b1.trader.deposit(SOL, 3n * ONE_SOL);
    const sol2 = await b2.trader.deposit(SOL, 2n * ONE_SOL);
    // Two crossing pairs in the same auction: one match of 2 SOL (slow proof), one of 1 SOL.
    const slowBid = await place(v, a1, usdc1, { amount: 2n * ONE_SOL });
    const fastBid = await place(v, a2, usdc2, { amount: ONE_SOL });
    const slowAsk = await place(v, b1, sol1, { amount: 2n * ONE_SOL, price_limit: PRICE });
    const fastAsk = await place(v, b2, sol2, { amount: ONE_SOL, price_limit: PRICE });

    await settleUntil(
      v,
      () => has(a2, fastBid, 'fully_filled')() && has(b2, fastAsk, 'fully_filled')(),
      'the fast match',
    );
    // Same batch (one auction), yet the slow match is still waiting for its proof.
    const batchOf = (p: typeof a1, id: string) =>
      p.stream.events('orders').find((f) => f.order_id === id && f.kind === 'pending_settlement')!.batch_id;
    expect(batchOf(a1, slowBid)).toBe(batchOf(a2, fastBid));
    expect(held).toBe(1);
    expect(kinds(a1, slowBid)).toEqual(['pending_settlement']);
    expect((await counters(v)).settle_transactions).toBe(1);

    release();
    await settleUntil(
      v,
      () => has(a1, slowBid, 'fully_filled')() && has(b1, slowAsk, 'fully_filled')(),
      'the slow match',
    );
    expect(await counters(v)).toMatchObject({ settle_transactions: 2, matches_confirmed: 2 });
    await expectSolvent(v);
  });

  it('a change note lock refused for its root is proven again against the finalized root, and lands', async () => {
    let corrupted = 0;
    const v = (venue = await startTestVenue({
      settle: true,
      // The first multi-leaf read of a shard's newest leaves comes back with one leaf altered, so
      // the engine's first VALID_LOCK names a root the shard never had (UnknownRoot).
      ledgerWrap: (l: LedgerClient) =>
        new Proxy(l, {
          get(target, prop, recv) {
            if (prop === 'getLeaves')
              return async (p: Parameters<LedgerClient['getLeaves']>[0]) => {
                const r = await target.getLeaves(p);
                if (corrupted === 0 && r.leaves.length >= 2 && p.from > 0) {
                  corrupted += 1;
                  return {
                    leaves: [{ ...r.leaves[0]!, value: '00'.repeat(31) + '07' }, ...r.leaves.slice(1)],
                  };
                }
                return r;
              };
            const value = Reflect.get(target, prop, recv) as unknown;
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }),
    }));
    const [alice, bob, carol] = [await party(v), await party(v), await party(v)];
    const usdc = await alice.trader.deposit(USDC, Trader.required('bid', 3n * ONE_SOL, PRICE));
    const sol1 = await bob.trader.deposit(SOL, 2n * ONE_SOL);
    const sol2 = await carol.trader.deposit(SOL, 3n * ONE_SOL);
    const bid = await place(v, alice, usdc, { amount: 3n * ONE_SOL });
    await place(v, bob, sol1, { amount: ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'partially_filled'), 'partial fill');
    const ask = await place(v, carol, sol2, { amount: 2n * ONE_SOL, price_limit: PRICE });
    await settleUntil(v, has(alice, bid, 'fully_filled'), 'the remainder, after a re-proof', 30_000);
    expect(corrupted).toBe(1);
    expect(kinds(carol, ask)).toEqual(['pending_settlement', 'fully_filled']);
    expect(await counters(v)).toMatchObject({
      lock_root_reproved: 1,
      lock_proofs_made: 2,
      matches_confirmed: 2,
    });
    await expectSolvent(v);
  });
});
