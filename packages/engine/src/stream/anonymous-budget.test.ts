import { describe, expect, it } from 'vitest';
import { AnonymousBudget } from './anonymous-budget.js';

/** Fills `budget` with `n` sockets from each address, named `<address>#<i>`, opened at `since`. */
function fill(budget: AnonymousBudget<string>, addresses: string[], n: number, since = 100): void {
  for (const a of addresses) for (let i = 0; i < n; i++) budget.add(`${a}#${i}`, a, since);
}

describe('AnonymousBudget', () => {
  it('fits until the address or the total is at its cap', () => {
    const b = new AnonymousBudget<string>(4, 2);
    expect(b.admission('a', 0)).toEqual({ kind: 'fits' });
    fill(b, ['a'], 2);
    expect(b.admission('a', 0)).toEqual({ kind: 'refused', why: 'address' });
    expect(b.admission('b', 0)).toEqual({ kind: 'fits' });
  });

  it('when full, a new address takes the oldest slot of the address holding the most', () => {
    const b = new AnonymousBudget<string>(128, 8);
    fill(
      b,
      Array.from({ length: 16 }, (_, i) => `10.0.0.${i}`),
      8,
    );
    expect(b.size).toBe(128);
    // 128 / 17 addresses = 7 each: the newcomer holds none, every other address holds 8.
    expect(b.admission('10.0.1.1', 0)).toEqual({ kind: 'evict', victim: '10.0.0.0#0' });
    b.remove('10.0.0.0#0');
    b.add('new#0', '10.0.1.1', 200);
    // The address that lost one (7) is at its share now; the next of the newcomer's own too.
    expect(b.admission('10.0.0.0', 0)).toEqual({ kind: 'refused', why: 'total' });
    expect(b.admission('10.0.1.1', 0)).toEqual({ kind: 'evict', victim: '10.0.0.1#0' });
  });

  it('an address at its fair share is refused even when others hold more', () => {
    const b = new AnonymousBudget<string>(6, 8);
    fill(b, ['a'], 4);
    fill(b, ['b'], 2);
    // 6 / 2 addresses = 3: b is under it, a over it.
    expect(b.admission('b', 0)).toEqual({ kind: 'evict', victim: 'a#0' });
    expect(b.admission('a', 0)).toEqual({ kind: 'refused', why: 'total' });
  });

  it('the share never falls below one socket, however many addresses hold one', () => {
    const b = new AnonymousBudget<string>(4, 8);
    fill(b, ['a', 'b', 'c', 'd'], 1);
    expect(b.admission('e', 0)).toEqual({ kind: 'evict', victim: 'a#0' });
    expect(b.admission('a', 0)).toEqual({ kind: 'refused', why: 'total' });
  });

  it('a socket past its login window gives way first, whoever asks', () => {
    const b = new AnonymousBudget<string>(3, 8);
    b.add('old', 'a', 10);
    fill(b, ['b'], 2, 50);
    expect(b.admission('a', 10)).toEqual({ kind: 'evict', victim: 'old' });
    expect(b.admission('b', 10)).toEqual({ kind: 'evict', victim: 'old' });
    expect(b.admission('b', 9)).toEqual({ kind: 'refused', why: 'total' });
  });

  it('remove frees the slot once and ignores sockets it does not count', () => {
    const b = new AnonymousBudget<string>(2, 2);
    fill(b, ['a'], 2);
    b.remove('a#0');
    b.remove('a#0');
    b.remove('never');
    expect(b.size).toBe(1);
    expect(b.admission('a', 0)).toEqual({ kind: 'fits' });
  });
});
