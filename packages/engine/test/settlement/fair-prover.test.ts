/**
 * One account floods market A; market B keeps trading. Two accounts of one trader cross eight
 * pairs in SOL-USDC while the prover holds every proof (the test's hand decides when each is
 * made); an honest pair in ETH-USDC still matches in the same auction and again while A's proofs
 * wait, its locks count only its own queue and a bounded share of A's (round-robin), its proofs
 * get the prover between A's, and it settles while A's flood is still in the book. The flooding
 * accounts never have more than their share of matches waiting for proofs; the rest of their
 * orders rest until proofs are made. Before the fix, A's backlog paused every market's auctions
 * (B matched nothing until A drained) and B's locks were stretched over A's whole backlog. Over
 * HTTPS and the stream, on the in-process ledger's manual clock; the engine's clock is the
 * ledger's (400 ms a slot).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidMatchV2Params, ValidLockParams, LockProofResult } from '@nightjar/circuits';
import { requiredCollateral } from '@nightjar/protocol';
import { mintAddress } from '@nightjar/ledger';
import { SOL, startTestVenue, Trader, USDC, stubMatchProver } from '@nightjar/testkit';
import type { Note, TestVenue } from '@nightjar/testkit';
import { eventually } from '../stream/stream-client.js';
import type { MatchProof, MatchProver } from '../../src/settlement/match-prover.js';
import { MAX_QUEUED_MATCHES_PER_ACCOUNT } from '../../src/settlement/lock-window.js';
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

const ETH = mintAddress('ETH');
const ONE_ETH = 100_000_000n;
const ETH_MARKET = { price_scale: 100_000_000n, fee_bps: 10n };
/** The lock window's assumed prover time per proof (no proof is measured before B's locks). */
const PRIOR_SLOTS_PER_PROOF = 50n;

/** A prover run by hand: each proof waits until the test releases it, or all flow once `flow()`. */
class HandProver implements MatchProver {
  readonly handed: { params: ValidMatchV2Params; release(): void }[] = [];
  onHand: (() => void) | undefined;
  private flowing = false;
  private readonly stub = stubMatchProver();

  prove(params: ValidMatchV2Params, signal?: AbortSignal): Promise<MatchProof> {
    return new Promise((resolve, reject) => {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        this.stub.prove(params, signal).then(resolve, reject);
      };
      this.handed.push({ params, release });
      this.onHand?.();
      if (this.flowing) release();
    });
  }

  proveLock(params: ValidLockParams, signal?: AbortSignal): Promise<LockProofResult> {
    return this.stub.proveLock(params, signal);
  }

  flow(): void {
    this.flowing = true;
    for (const h of this.handed) h.release();
  }

  async close(): Promise<void> {}
}

const prover = new HandProver();
let v: TestVenue;
const clock = slotClock(() => v);

beforeAll(async () => {
  v = await startTestVenue({
    settle: true,
    matchProver: prover,
    now: clock.now,
  });
});
afterAll(async () => {
  prover.flow();
  await v.close();
});

const accountOf = (p: Party): string => p.stream.loginReply!.result.account_id as string;
const isMarketB = (params: ValidMatchV2Params) => params.priceScale === ETH_MARKET.price_scale;

async function finalized(): Promise<void> {
  await v.advance(40);
  await v.engine.context.trees.checkAgainstChain();
}

describe('fair prover capacity between markets and accounts', () => {
  it('one account flooding market A neither pauses market B nor stretches its locks', async () => {
    const [alice, bob, carol, dave] = [await party(v), await party(v), await party(v), await party(v)];
    const settlement = v.engine.context.settlement;
    let mostQueued = 0;
    const sample = () => {
      for (const p of [alice, bob])
        mostQueued = Math.max(mostQueued, settlement.queuedMatchesOf!(accountOf(p)));
    };
    prover.onHand = sample;
    const offSlot = v.engine.context.chain.onSlot(sample);

    // The flood: eight crossing pairs between alice and bob in SOL-USDC.
    const flood: [Note, Note][] = [];
    for (let i = 0; i < 8; i++)
      flood.push([
        await alice.trader.depositNow(USDC, Trader.required('bid', ONE_SOL, PRICE)),
        await bob.trader.depositNow(SOL, Trader.required('ask', ONE_SOL, PRICE)),
      ]);
    const eth = () => ({
      bid: carol.trader.depositNow(USDC, requiredCollateral('bid', ONE_ETH, PRICE, ETH_MARKET)),
      ask: dave.trader.depositNow(ETH, requiredCollateral('ask', ONE_ETH, PRICE, ETH_MARKET)),
    });
    const firstEth = eth();
    const b1 = { bid: await firstEth.bid, ask: await firstEth.ask };
    const secondEth = eth();
    const b2 = { bid: await secondEth.bid, ask: await secondEth.ask };
    await finalized();
    const expiry = { expiry_slot: BigInt(v.engine.context.chain.slot + 4000) };
    const alicesBids: string[] = [];
    for (const [usdc, sol] of flood) {
      alicesBids.push(await place(v, alice, usdc, expiry));
      await place(v, bob, sol, { ...expiry, price_limit: PRICE });
    }
    const ethOrder = { ...expiry, symbol: 'ETH-USDC', amount: ONE_ETH, price_limit: PRICE };
    const placeEth = async (notes: { bid: Note; ask: Note }) => ({
      bid: await place(v, carol, notes.bid, { ...ethOrder, side: 'bid' }),
      ask: await place(v, dave, notes.ask, { ...ethOrder, side: 'ask' }),
    });
    const first = await placeEth(b1);

    // One auction per market: B's pair matches beside the flood, of which only the flooding
    // accounts' share matched (the rest rests in the book, not queued).
    await settleUntil(v, has(carol, first.bid, 'pending_settlement'), 'market B to match beside the flood');
    const matched = () => alicesBids.filter((id) => has(alice, id, 'pending_settlement')()).length;
    expect(matched()).toBe(MAX_QUEUED_MATCHES_PER_ACCOUNT);
    // B's lock covers its own proof and at most two of A's (the one running, one more at A's turn),
    // not A's backlog: 30 + 2 × 3 proofs at the prior 50 slots.
    expect(clock.lockSlots(carol, first.bid)).toBeLessThanOrEqual(30n + 2n * 3n * PRIOR_SLOTS_PER_PROOF);
    expect(clock.lockSlots(carol, first.bid)).toBeLessThan(clock.lockSlots(alice, alicesBids[0]!));

    // B keeps running while every proof still waits: a second pair matches at once.
    const second = await placeEth(b2);
    await settleUntil(v, has(carol, second.bid, 'pending_settlement'), 'market B to match again');
    expect(clock.lockSlots(carol, second.bid)).toBeLessThanOrEqual(30n + 2n * 5n * PRIOR_SLOTS_PER_PROOF);
    expect(matched()).toBe(MAX_QUEUED_MATCHES_PER_ACCOUNT);

    // B's first proof gets the prover after at most two of A's, though A queued four before it.
    const firstOfB = () => prover.handed.findIndex((h) => isMarketB(h.params));
    for (let i = 0; i < 3 && firstOfB() < 0; i++) {
      await eventually(() => prover.handed.length > i, `proof ${i + 1} to be handed to the prover`);
      if (firstOfB() >= 0) break;
      prover.handed[i]!.release();
      await eventually(() => prover.handed.length > i + 1, `proof ${i + 2} to be handed to the prover`);
    }
    expect(firstOfB()).toBeGreaterThanOrEqual(0);
    expect(firstOfB()).toBeLessThanOrEqual(2);

    // B settles while A's flood is still being worked through: proofs are released in the order
    // they were handed until both of B's are made; the next of A's is held meanwhile (one proof
    // at a time), so A cannot have drained however slowly the machine runs.
    const filled = (p: Party, ids: string[]) => ids.filter((id) => has(p, id, 'fully_filled')()).length;
    let released = 0;
    while (prover.handed.slice(0, released).filter((h) => isMarketB(h.params)).length < 2) {
      await eventually(
        () => prover.handed.length > released,
        `proof ${released + 1} to be handed to the prover`,
      );
      prover.handed[released++]!.release();
    }
    await settleUntil(v, () => filled(carol, [first.bid, second.bid]) === 2, 'market B to settle', 60_000);
    expect(filled(alice, alicesBids)).toBeLessThan(alicesBids.length);
    prover.flow();
    await settleUntil(
      v,
      () => filled(alice, alicesBids) === alicesBids.length,
      'the flood to settle',
      60_000,
    );
    for (const p of [alice, bob, carol, dave])
      expect(p.stream.events('orders').filter((f) => f.kind === 'settlement_failed')).toEqual([]);
    offSlot();
    expect(mostQueued).toBeGreaterThan(0);
    expect(mostQueued).toBeLessThanOrEqual(MAX_QUEUED_MATCHES_PER_ACCOUNT);
    await expectSolvent(v);
  }, 180_000);
});
