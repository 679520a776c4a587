import { describe, expect, it } from 'vitest';
import { RECENT_ROOT_SLOTS, RecentRoots } from './recent-roots.js';

describe('RecentRoots: every root of the last RECENT_ROOT_SLOTS slots, by age', () => {
  it('is the finality depth plus 150 slots', () => {
    expect(RECENT_ROOT_SLOTS).toBe(181);
  });

  it('keeps any number of appends inside the window and drops a root once replaced that long ago', () => {
    const w = new RecentRoots([0n], 0);
    for (let i = 1n; i <= 1000n; i++) w.push(i, 10); // 1,000 appends in slot 10
    expect(w.size).toBe(1001);
    expect(w.has(0n, 10 + RECENT_ROOT_SLOTS - 1)).toBe(true);
    expect(w.has(0n, 10 + RECENT_ROOT_SLOTS)).toBe(false);
    // The current root never ages.
    expect(w.has(1000n, 10_000)).toBe(true);
    // The next append prunes what is out of the window at its slot.
    w.push(1001n, 10 + RECENT_ROOT_SLOTS);
    expect(w.size).toBe(2);
    expect(w.has(999n, 10 + RECENT_ROOT_SLOTS)).toBe(false);
    expect(w.has(1000n, 10 + 2 * RECENT_ROOT_SLOTS - 1)).toBe(true);
  });

  it('a window read from the chain counts its older roots as replaced at the read, and ends at the mirror’s root', () => {
    const hex = (n: bigint) => n.toString(16).padStart(64, '0');
    const w = RecentRoots.fromChain([hex(1n), hex(2n), hex(3n)], 2n, 500);
    expect(w.size).toBe(2);
    expect(w.has(1n, 500 + RECENT_ROOT_SLOTS - 1)).toBe(true);
    expect(w.has(1n, 500 + RECENT_ROOT_SLOTS)).toBe(false);
    expect(w.has(3n, 500)).toBe(false); // not applied by the mirror yet
    expect(RecentRoots.fromChain([hex(1n)], 9n, 500).has(1n, 500)).toBe(false);
  });
});
