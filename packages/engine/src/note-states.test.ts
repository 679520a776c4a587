import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '@nightjar/ledger';
import { NoteStateMirror, type NoteStateLedger } from './note-states.js';

const n = (i: number) => i.toString(16).padStart(64, '0');

/** A ledger stand-in: its sets read in pages of two, its events delivered by `emit`. */
function fakeLedger(spent: string[], locks: { nullifier: string; until_slot: number }[]) {
  let listener: ((e: LedgerEvent) => void) | undefined;
  const ledger: NoteStateLedger = {
    subscribe(l) {
      listener = l;
      return () => (listener = undefined);
    },
    async getSpentNullifiers({ from }) {
      const page = spent.slice(from, from + 2);
      return { nullifiers: page, next: from + page.length };
    },
    async getLiveLocks({ from }) {
      const page = locks.slice(from, from + 2);
      return { locks: page, next: from + page.length };
    },
  };
  return { ledger, emit: (e: LedgerEvent) => listener?.(e), spent, locks };
}

describe('NoteStateMirror', () => {
  it('reads both sets page by page at start, then follows note events', async () => {
    const f = fakeLedger([n(1), n(2), n(3)], [{ nullifier: n(4), until_slot: 50 }]);
    const m = new NoteStateMirror(f.ledger);
    await m.start();
    expect([1, 2, 3].map((i) => m.state(n(i), 10))).toEqual(['spent', 'spent', 'spent']);
    expect(m.state(n(4), 10)).toBe('locked');
    expect(m.lockedUntil(n(4), 10)).toBe(50);
    expect(m.state(n(4), 50)).toBe('free'); // a lock at its end binds nothing
    expect(m.state(n(5), 10)).toBe('free');

    const before = m.spentCount;
    f.emit({ type: 'note', nullifier: n(5), slot: 11, state: 'locked', locked_until_slot: 60 });
    expect(m.state(n(5), 11)).toBe('locked');
    f.emit({ type: 'note', nullifier: n(4), slot: 11, state: 'free' });
    expect(m.state(n(4), 11)).toBe('free');
    const count = m.spentCount;
    f.emit({ type: 'note', nullifier: n(5), slot: 12, state: 'spent' });
    expect(m.state(n(5), 12)).toBe('spent');
    expect(m.spentCount).toBe(count + 1);
    expect(m.spentCount).toBe(before + 1); // n(5) alone became spent
  });

  it('after a resync: the spent read resumes from its cursor, locks are read afresh', async () => {
    const f = fakeLedger([n(1)], [{ nullifier: n(2), until_slot: 50 }]);
    const m = new NoteStateMirror(f.ledger);
    await m.start();
    // While the stream was down: n(6) spent, n(2) released, n(7) locked.
    f.spent.push(n(6));
    f.locks.splice(0, 1, { nullifier: n(7), until_slot: 70 });
    const before = m.spentCount;
    f.emit({ type: 'resync' });
    await expect.poll(() => m.state(n(7), 10)).toBe('locked');
    expect(m.state(n(6), 10)).toBe('spent');
    expect(m.state(n(2), 10)).toBe('free');
    expect(m.spentCount).toBe(before + 1); // n(6) alone became spent
  });

  it('learns what a refused lock said, until the ledger says otherwise', async () => {
    const f = fakeLedger([], []);
    const m = new NoteStateMirror(f.ledger);
    await m.start();
    m.learn(n(1), 'spent', 10);
    m.learn(n(2), 'locked', 10);
    expect(m.state(n(1), 10)).toBe('spent');
    expect(m.state(n(2), 4000)).toBe('locked');
    f.emit({ type: 'note', nullifier: n(2), slot: 11, state: 'free' });
    expect(m.state(n(2), 11)).toBe('free');
  });
});
