import { describe, expect, it } from 'vitest';
import { LockWindow, SETTLEMENT_LOCK_SLOTS, type SlotSource } from './lock-window.js';

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
    const t = w.proofQueued();
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
    expect(w.lockSlotsFor(1)).toBe(SETTLEMENT_LOCK_SLOTS);
    expect(w.lockSlotsFor(16)).toBe(SETTLEMENT_LOCK_SLOTS); // 16 × 2 slots, doubled, + 30 < 150
    expect(w.acceptsMatches()).toBe(true);
  });

  it('stretches locks over a backlog and pauses matching while it is over half the base window', () => {
    const { w, pass } = world();
    // Five proofs queued at once, each taking 25 slots (10 s) of the prover's time.
    const queued = Array.from({ length: 5 }, () => w.proofQueued());
    for (const t of queued) w.proofHanded(t);
    pass(25);
    w.proofEnded(queued[0]!, true);
    expect(w.backlogSlots()).toBe(100n); // four left, 25 slots each: queueing was not counted
    expect(w.acceptsMatches()).toBe(false);
    expect(w.lockSlotsFor(2)).toBe(30n + 2n * 150n);
    for (const t of queued.slice(1, 4)) {
      pass(25);
      w.proofEnded(t, true);
    }
    expect(w.backlogSlots()).toBe(25n);
    expect(w.acceptsMatches()).toBe(true);
  });

  it('assumes a slow prover until one proof is measured, and never passes the ledger ceiling', () => {
    const { w } = world();
    expect(w.lockSlotsFor(8)).toBe(30n + 2n * 400n); // 8 × 50 slots (20 s at 400 ms a slot)
    expect(w.lockSlotsFor(1000)).toBe(4490n);
    for (let i = 0; i < 2; i++) w.proofQueued();
    expect(w.acceptsMatches()).toBe(false);
  });

  it('the prior is in slots: a hand-stepped clock does not stretch it', () => {
    const { w, pass } = world();
    for (let i = 0; i < 10; i++) pass(100, 0);
    expect(w.lockSlotsFor(1)).toBe(SETTLEMENT_LOCK_SLOTS);
  });

  it('a failed or dropped proof leaves the backlog without teaching a rate', () => {
    const { w, pass } = world();
    const a = w.proofQueued();
    w.proofHanded(a);
    pass(1000);
    w.proofEnded(a, false);
    expect(w.queued).toBe(0);
    w.proofQueued();
    expect(w.backlogSlots()).toBe(50n); // still the prior
  });

  it('a hand-stepped clock that passes many slots at once counts at least 1 ms a slot', () => {
    const { w, pass, proveOne } = world();
    proveOne(10); // 4 s a proof
    for (let i = 0; i < 40; i++) pass(100, 0);
    w.proofQueued();
    expect(w.backlogSlots()).toBeLessThanOrEqual(4000n);
    expect(w.lockSlotsFor(0)).toBe(4490n);
  });

  it('a proof waiting for its paths is backlog, but its wait is not prover time', () => {
    const { w, pass } = world();
    const t = w.proofQueued();
    expect(w.backlogSlots()).toBe(50n); // counted before the prover has it
    pass(30); // 12 s waiting for the inputs' paths
    w.proofHanded(t);
    pass(5);
    w.proofEnded(t, true);
    expect(w.queued).toBe(0);
    w.proofQueued();
    expect(w.backlogSlots()).toBe(5n); // 2 s a proof, not 14
  });

  it('close stops listening to slots', () => {
    const { w, listeners } = world();
    w.close();
    expect(listeners.size).toBe(0);
  });
});
