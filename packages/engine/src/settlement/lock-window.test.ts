import { describe, expect, it } from 'vitest';
import { LockWindow, SEED_MARGIN, SETTLEMENT_LOCK_SLOTS, type SlotSource } from './lock-window.js';

/** A chain whose slots pass every 400 ms of a hand-moved clock. */
function world() {
  let ms = 0;
  let slot = 100;
  const listeners = new Set<(s: number) => void>();
  const chain: SlotSource = {
    get slot() {
      return slot;
    },
    onSlot(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const w = new LockWindow(chain, () => ms);
  const pass = (slots: number, msPerSlot = 400) => {
    for (let i = 0; i < slots; i++) {
      ms += msPerSlot;
      slot += 1;
      for (const l of listeners) l(slot);
    }
  };
  /** One proof handed to the prover at once and made in `slots` slots. */
  const proveOne = (slots: number) => {
    const t = w.proofQueued('A', ['alice', 'bob']);
    w.proofHanded(t);
    pass(slots);
    w.proofEnded(t, true);
  };
  return { w, pass, proveOne, listeners };
}

describe('LockWindow', () => {
  it('keeps the base window while the prover keeps up', () => {
    const { w, proveOne } = world();
    proveOne(2); // 800 ms a proof
    expect(w.lockSlotsFor('A', 1)).toBe(SETTLEMENT_LOCK_SLOTS);
    expect(w.lockSlotsFor('A', 16)).toBe(SETTLEMENT_LOCK_SLOTS); // 16 × 2 slots, doubled, + 30 < 150
    expect(w.acceptsMatches('A')).toBe(true);
  });

  it('stretches locks over a backlog and pauses matching while it is over half the base window', () => {
    const { w, pass } = world();
    // Five proofs queued at once, each taking 25 slots (10 s) of the prover's time.
    const queued = Array.from({ length: 5 }, () => w.proofQueued('A', ['alice', 'bob']));
    for (const t of queued) w.proofHanded(t);
    pass(25);
    w.proofEnded(queued[0]!, true);
    expect(w.backlogSlots('A')).toBe(100n); // four left, 25 slots each: queueing was not counted
    expect(w.acceptsMatches('A')).toBe(false);
    expect(w.lockSlotsFor('A', 2)).toBe(30n + 2n * 150n);
    for (const t of queued.slice(1, 4)) {
      pass(25);
      w.proofEnded(t, true);
    }
    expect(w.backlogSlots('A')).toBe(25n);
    expect(w.acceptsMatches('A')).toBe(true);
  });

  it('assumes a slow prover until one proof is measured, and never passes the ledger ceiling', () => {
    const { w } = world();
    expect(w.lockSlotsFor('A', 8)).toBe(30n + 2n * 400n); // 8 × 50 slots (20 s at 400 ms a slot)
    expect(w.lockSlotsFor('A', 1000)).toBe(4490n);
    for (let i = 0; i < 2; i++) w.proofQueued('A', ['alice', 'bob']);
    expect(w.acceptsMatches('A')).toBe(false);
  });

  it('a proof timed while warming replaces the prior, doubled, until a real one is measured', () => {
    const { w, pass, proveOne } = world();
    pass(5); // 400 ms a slot
    w.seedProofTime(5_000); // 10 s with the margin: 25 slots a proof
    expect(SEED_MARGIN).toBe(2);
    expect(w.lockSlotsFor('A', 8)).toBe(30n + 2n * 200n);
    for (let i = 0; i < 3; i++) w.proofQueued('A', ['alice', 'bob']);
    expect(w.acceptsMatches('A')).toBe(true); // 75 slots: the prior's 150 would pause the market
    const slow = { w: world() };
    slow.w.pass(5);
    slow.w.w.seedProofTime(60_000); // a busy machine: 300 slots a proof
    expect(slow.w.w.lockSlotsFor('A', 1)).toBe(30n + 2n * 300n);
    proveOne(2); // the first real proof (800 ms) replaces the seed
    expect(w.backlogSlots('A', 0)).toBe(BigInt(Math.ceil((3 * 800) / 400)));
  });

  it('a seed after a measured proof, or of no time, is ignored', () => {
    const { w, proveOne } = world();
    w.seedProofTime(0);
    expect(w.backlogSlots('A', 1)).toBe(50n); // still the prior
    proveOne(2);
    w.seedProofTime(60_000);
    expect(w.backlogSlots('A', 1)).toBe(2n);
  });

  it('the prior is in slots: a hand-stepped clock does not stretch it', () => {
    const { w, pass } = world();
    for (let i = 0; i < 10; i++) pass(100, 0);
    expect(w.lockSlotsFor('A', 1)).toBe(SETTLEMENT_LOCK_SLOTS);
  });

  it('a failed or dropped proof leaves the backlog without teaching a rate', () => {
    const { w, pass } = world();
    const a = w.proofQueued('A', ['alice', 'bob']);
    w.proofHanded(a);
    pass(1000);
    w.proofEnded(a, false);
    expect(w.queued).toBe(0);
    w.proofQueued('A', ['alice', 'bob']);
    expect(w.backlogSlots('A')).toBe(50n); // still the prior
  });

  it('a hand-stepped clock that passes many slots at once counts at least 1 ms a slot', () => {
    const { w, pass, proveOne } = world();
    proveOne(10); // 4 s a proof
    for (let i = 0; i < 40; i++) pass(100, 0);
    w.proofQueued('A', ['alice', 'bob']);
    expect(w.backlogSlots('A')).toBeLessThanOrEqual(4000n);
    expect(w.lockSlotsFor('A', 0)).toBe(4490n);
  });

  it('a proof waiting for its paths is backlog, but its wait is not prover time', () => {
    const { w, pass } = world();
    const t = w.proofQueued('A', ['alice', 'bob']);
    expect(w.backlogSlots('A')).toBe(50n); // counted before the prover has it
    pass(30); // 12 s waiting for the inputs' paths
    w.proofHanded(t);
    pass(5);
    w.proofEnded(t, true);
    expect(w.queued).toBe(0);
    w.proofQueued('A', ['alice', 'bob']);
    expect(w.backlogSlots('A')).toBe(5n); // 2 s a proof, not 14
  });

  it('close stops listening to slots', () => {
    const { w, listeners } = world();
    w.close();
    expect(listeners.size).toBe(0);
  });

  it('a market waits for its own queue and at most as much of each other market’s', () => {
    const { w, proveOne } = world();
    proveOne(10); // 4 s a proof
    for (let i = 0; i < 20; i++) w.proofQueued('A', ['flooder', 'accomplice']);
    // A's twenty proofs pause A and stretch its locks,
    expect(w.acceptsMatches('A')).toBe(false);
    expect(w.lockSlotsFor('A', 1)).toBe(30n + 2n * 21n * 10n);
    // but B, with nothing queued, keeps matching, and its next match waits for two proofs of A's
    // (the one the prover runs, and one more at A's turn).
    expect(w.acceptsMatches('B')).toBe(true);
    expect(w.aheadOf('B', 1)).toBe(3);
    expect(w.lockSlotsFor('B', 1)).toBe(SETTLEMENT_LOCK_SLOTS);
    w.proofQueued('B', ['carol', 'dave']);
    expect(w.acceptsMatches('B')).toBe(true); // one proof of its own: 10 slots
    expect(w.aheadOf('B', 2)).toBe(3 + 4);
  });

  it('counts each account’s matches waiting for proofs, once per match', () => {
    const { w } = world();
    const a = w.proofQueued('A', ['alice', 'bob']);
    const b = w.proofQueued('B', ['alice', 'alice']);
    expect([w.queuedFor('alice'), w.queuedFor('bob'), w.queuedFor('carol')]).toEqual([2, 1, 0]);
    w.proofEnded(a, false);
    w.proofEnded(b, true);
    expect([w.queuedFor('alice'), w.queuedFor('bob')]).toEqual([0, 0]);
    expect(w.aheadOf('A')).toBe(0);
  });
});
