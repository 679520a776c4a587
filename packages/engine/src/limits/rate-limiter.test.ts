import { RATE_LIMIT } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import { RateLimiter, orderRateLimiter } from './rate-limiter.js';

function clocked(options: { capacity: number; refillPerSecond: number; maxEntries?: number }) {
  const clock = { ms: 1_000_000 };
  const limiter = new RateLimiter({ ...options, now: () => clock.ms });
  return { clock, limiter };
}

describe('RateLimiter', () => {
  it('allows a burst of capacity, then refuses with the exact wait', () => {
    const { clock, limiter } = clocked({ capacity: 5, refillPerSecond: 0.5 });
    for (let i = 0; i < 5; i++) expect(limiter.take('a', 1)).toEqual({ ok: true });
    expect(limiter.take('a', 1)).toEqual({ ok: false, retryAfterSeconds: 2 });
    clock.ms += 1999;
    expect(limiter.take('a', 1)).toEqual({ ok: false, retryAfterSeconds: 0.001 });
    clock.ms += 1;
    expect(limiter.take('a', 1)).toEqual({ ok: true });
    expect(limiter.take('a', 1).ok).toBe(false);
  });

  it('keeps keys independent', () => {
    const { limiter } = clocked({ capacity: 1, refillPerSecond: 1 });
    expect(limiter.take('a', 1).ok).toBe(true);
    expect(limiter.take('a', 1).ok).toBe(false);
    expect(limiter.take('b', 1).ok).toBe(true);
  });

  it('adds the spec costs exactly: 200 cancels of 0.2 fill a bucket of 40, the 201st waits 10 ms', () => {
    const clock = { ms: 5_000 };
    const limiter = orderRateLimiter(() => clock.ms);
    expect([limiter.capacity, limiter.refillPerSecond]).toEqual([40, 20]);
    for (let i = 0; i < 200; i++) expect(limiter.take('acct', RATE_LIMIT.cost.cancel).ok).toBe(true);
    expect(limiter.take('acct', RATE_LIMIT.cost.cancel)).toEqual({ ok: false, retryAfterSeconds: 0.01 });
    clock.ms += 10;
    expect(limiter.take('acct', RATE_LIMIT.cost.cancel).ok).toBe(true);
    // 50 ms refills exactly one place at 20/s.
    clock.ms += 50;
    expect(limiter.take('acct', RATE_LIMIT.cost.place).ok).toBe(true);
    expect(limiter.take('acct', RATE_LIMIT.cost.read)).toEqual({ ok: false, retryAfterSeconds: 0.005 });
  });

  it('a refused take costs nothing and a full bucket never overfills', () => {
    const { clock, limiter } = clocked({ capacity: 2, refillPerSecond: 1 });
    expect(limiter.take('a', 2).ok).toBe(true);
    expect(limiter.take('a', 1).ok).toBe(false);
    clock.ms += 1000;
    expect(limiter.available('a')).toBe(1);
    clock.ms += 60_000;
    expect(limiter.available('a')).toBe(2);
    expect(limiter.take('a', 2).ok).toBe(true);
    expect(limiter.take('a', 0.5).ok).toBe(false);
  });

  it('refund gives back up to capacity', () => {
    const { limiter } = clocked({ capacity: 3, refillPerSecond: 1 });
    limiter.take('a', 1);
    limiter.take('a', 1);
    limiter.refund('a', 1);
    expect(limiter.available('a')).toBe(2);
    limiter.refund('a', 5 - 3);
    expect(limiter.available('a')).toBe(3);
    expect(limiter.size).toBe(0); // full is the same as absent
    limiter.refund('unseen', 1);
    expect(limiter.size).toBe(0);
  });

  it('drops buckets that have refilled and never holds more than maxEntries', () => {
    const { clock, limiter } = clocked({ capacity: 1, refillPerSecond: 1, maxEntries: 3 });
    for (const k of ['a', 'b', 'c']) limiter.take(k, 1);
    expect(limiter.size).toBe(3);
    // Full of buckets in debt: a new key is refused for a full refill time, nobody is forgiven.
    expect(limiter.take('d', 1)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.size).toBe(3);
    expect(limiter.available('a')).toBe(0);
    clock.ms += 1000; // everything refilled
    expect(limiter.take('e', 1).ok).toBe(true); // the refilled are dropped as a new one comes in
    expect(limiter.size).toBe(1);
    clock.ms += 1000;
    expect(limiter.sweep()).toBe(1);
    expect(limiter.size).toBe(0);
  });

  it('a flood of new keys never resets a limited key, and the table stays bounded', () => {
    const { clock, limiter } = clocked({ capacity: 2, refillPerSecond: 1, maxEntries: 100 });
    limiter.take('victim-or-attacker', 2);
    expect(limiter.take('victim-or-attacker', 1).ok).toBe(false);
    const admitted = Array.from({ length: 10_000 }, (_, i) => limiter.take(`k${i}`, 1).ok);
    expect(admitted.filter(Boolean)).toHaveLength(99);
    expect(limiter.size).toBe(100);
    clock.ms += 500; // refills 0.5: still short of 1
    expect(limiter.take('victim-or-attacker', 1).ok).toBe(false);
    expect(limiter.available('victim-or-attacker')).toBe(0.5);
  });

  it('a full table finds a refilled bucket that is not the least recently touched', () => {
    const { clock, limiter } = clocked({ capacity: 1, refillPerSecond: 1, maxEntries: 2 });
    limiter.take('b', 1);
    clock.ms += 100;
    limiter.take('a', 0.1);
    clock.ms += 200; // 'a' refilled, 'b' (touched first) has not
    expect(limiter.take('c', 1).ok).toBe(true);
    expect(limiter.available('b')).toBeCloseTo(0.3, 5);
    expect(limiter.size).toBe(2);
  });

  it('a clock stepping back refills nothing', () => {
    const { clock, limiter } = clocked({ capacity: 1, refillPerSecond: 1 });
    limiter.take('a', 1);
    clock.ms -= 10_000;
    expect(limiter.take('a', 1).ok).toBe(false);
  });

  it('refuses impossible configurations and costs', () => {
    expect(() => new RateLimiter({ capacity: 0, refillPerSecond: 1 })).toThrow(RangeError);
    expect(() => new RateLimiter({ capacity: 1, refillPerSecond: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ capacity: 1, refillPerSecond: 1, maxEntries: 0 })).toThrow(RangeError);
    const { limiter } = clocked({ capacity: 1, refillPerSecond: 1 });
    expect(() => limiter.take('a', 2)).toThrow(RangeError);
    expect(() => limiter.take('a', -1)).toThrow(RangeError);
    expect(() => limiter.take('a', Number.NaN)).toThrow(RangeError);
  });
});
