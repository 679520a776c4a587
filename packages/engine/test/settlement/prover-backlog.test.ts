/**
 * More matches than one lock's worth of proving: a prover that needs 40 slots a proof, one at a
 * time, gets six crossing pairs of the same two accounts; four match in the first auction (each
 * account's share of the prover's queue; 160 slots of proving against the base 150-slot lock),
 * the other two rest until proofs are made, and four more pairs arrive while it works. Every match
 * settles: the locks of a backlog are stretched to cover it, and auctions wait while the backlog
 * is long (the rest rests in the book until the prover catches up). Before this, matches four to six failed `lock_expired`
 * and their orders were lost. Over HTTPS and the stream, on the in-process ledger's manual clock;
 * the engine's clock is the ledger's (400 ms a slot), so the prover's time is measured in slots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, SOL, startTestVenue, Trader, USDC, stubMatchProver } from '@nightjar/testkit';
import type { Note, TestVenue } from '@nightjar/testkit';
import type { MatchProver } from '../../src/settlement/match-prover.js';
import {
  expectSolvent,
  has,
  ONE_SOL,
  party,
  place,
  PRICE,
  settleUntil,
  slotClock,
  type Party,
} from './venue-helpers.js';

const SLOTS_PER_PROOF = 40;

let v: TestVenue;
const clock = slotClock(() => v);

/** One proof at a time, each moving the chain 40 slots while it "works". */
function slowProver(): MatchProver {
  const stub = stubMatchProver();
  let line: Promise<unknown> = Promise.resolve();
  return {
    prove(params, signal) {
      const turn = line.then(async () => {
        signal?.throwIfAborted();
        await v.advance(SLOTS_PER_PROOF);
        return stub.prove(params, signal);
      });
      line = turn.catch(() => undefined);
      return turn;
    },
    proveLock: (params, signal) => stub.proveLock(params, signal),
    close: async () => {},
  };
}

beforeAll(async () => {
  v = await startTestVenue({
    settle: true,
    matchProver: slowProver(),
    now: clock.now,
  });
});
afterAll(async () => {
  await v.close();
});

async function pairs(alice: Party, bob: Party, n: number): Promise<{ bids: string[]; asks: string[] }> {
  const notes: [Note, Note][] = [];
  for (let i = 0; i < n; i++)
    notes.push([
      await alice.trader.depositNow(USDC, Trader.required('bid', ONE_SOL, PRICE)),
      await bob.trader.depositNow(SOL, Trader.required('ask', ONE_SOL, PRICE)),
    ]);
  await v.advance(40);
  await v.engine.context.trees.checkAgainstChain();
  const expiry = { expiry_slot: BigInt(v.engine.context.chain.slot + 4000) };
  const bids: string[] = [];
  const asks: string[] = [];
  for (const [usdc, sol] of notes) {
    bids.push(await place(v, alice, usdc, expiry));
    asks.push(await place(v, bob, sol, { ...expiry, price_limit: PRICE }));
  }
  return { bids, asks };
}

describe('a prover backlog longer than a lock', () => {
  it('every match settles: locks stretch over the backlog and auctions wait for it', async () => {
    const [alice, bob] = [await party(v), await party(v)];
    const first = await pairs(alice, bob, 6);
    // Four of the six cross in one auction; the prover now holds 160 slots of work.
    await settleUntil(v, has(alice, first.bids[3]!, 'pending_settlement'), 'the first wave matched');
    const second = await pairs(alice, bob, 4);
    const all = [...first.bids, ...second.bids].map((id) => [alice, id] as const);
    all.push(...[...first.asks, ...second.asks].map((id) => [bob, id] as const));
    const ended = (kind: string) => all.filter(([p, id]) => has(p, id, kind)());
    await settleUntil(
      v,
      () => ended('fully_filled').length === all.length || ended('settlement_failed').length > 0,
      'every fill',
      120_000,
    );
    expect(ended('settlement_failed').map(([, id]) => id)).toEqual([]);
    expect(ended('fully_filled')).toHaveLength(20);

    // The engine's clock is the ledger's slot: an event's time names the slot of its match.
    const lockSlots = all.map(([p, id]) => clock.lockSlots(p, id));
    const firstWave = [...lockSlots.slice(0, 4), ...lockSlots.slice(10, 14)];
    for (const s of firstWave) expect(s).toBeGreaterThan(160n);
    for (const s of lockSlots) expect(s).toBeLessThanOrEqual(4490n);
    const token = await login(v.client, v.admin);
    const metrics = (await v.client.send('/admin/metrics/settlement', { token })).body;
    expect(metrics.counters.matches_confirmed).toBe(10);
    expect(metrics.counters.matches_rejected).toBe(0);
    await expectSolvent(v);
  }, 180_000);
});
