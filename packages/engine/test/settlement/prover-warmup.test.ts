/**
 * The boot warms the match prover before the venue is ready: a fake prover seam whose warm-up
 * is held open sees the venue not ready until it answers, and the proof time it answers seeds
 * the lock window (a first match's locks cover it). A prover without `warm` boots as before.
 */
import { describe, expect, it } from 'vitest';
import { startTestVenue, stubMatchProver, type TestVenue } from '@nightjar/testkit';
import type { MatchProver } from '../../src/settlement/match-prover.js';
import { SETTLEMENT_LOCK_SLOTS } from '../../src/settlement/lock-window.js';

/** A stub prover whose warm-up answers `proofMs` only when the test lets it. */
function heldWarmProver(proofMs: number) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const warmStarted = new Promise<void>((r) => (started = r));
  const prover: MatchProver = {
    ...stubMatchProver(),
    warm: async () => {
      started();
      await released;
      return proofMs;
    },
  };
  return { prover, release, warmStarted };
}

const marketOf = (v: TestVenue) => v.engine.context.markets.list()[0]!.market_id;

describe('prover warm-up at boot', () => {
  it('holds the venue until every worker is warm, then seeds the lock window', async () => {
    // 30 s a proof: far more than the 50-slot prior, whatever the slot length measured so far.
    const { prover, release, warmStarted } = heldWarmProver(30_000);
    let ready = false;
    const starting = startTestVenue({ settle: true, matchProver: prover }).then((v) => {
      ready = true;
      return v;
    });
    await warmStarted;
    // Give a boot that did not wait every chance to finish first.
    for (let i = 0; i < 50 && !ready; i++) await new Promise((r) => setImmediate(r));
    expect(ready).toBe(false);
    release();
    const v = await starting;
    try {
      // The prior leaves one match at the base window; the seed stretches it (its size in slots
      // depends on this venue's hand-moved clock: lock-window.test.ts checks it).
      expect(v.engine.context.settlement.lockSlotsFor(marketOf(v), 1)).toBeGreaterThan(SETTLEMENT_LOCK_SLOTS);
    } finally {
      await v.close();
    }
  }, 60_000);

  it('keeps the prior when the prover cannot warm', async () => {
    const v = await startTestVenue({ settle: true, matchProver: stubMatchProver() });
    try {
      expect(v.engine.context.settlement.lockSlotsFor(marketOf(v), 1)).toBe(SETTLEMENT_LOCK_SLOTS);
      expect(v.engine.context.settlement.lockSlotsFor(marketOf(v), 2)).toBe(30n + 2n * 100n);
    } finally {
      await v.close();
    }
  }, 60_000);
});
