import { describe, expect, it } from 'vitest';
import { LockFailureThrottle } from './lock-failure-throttle.js';

describe('LockFailureThrottle', () => {
  const limit = { maxFailures: 3, windowSlots: 100, coolDownSlots: 50 };

  it('cools an account down after maxFailures within the window, for coolDownSlots', () => {
    const t = new LockFailureThrottle(limit);
    t.record('a', 10);
    t.record('a', 20);
    expect(t.coolingDown('a', 21)).toBeUndefined();
    t.record('a', 30);
    expect(t.coolingDown('a', 30)).toBe(50);
    expect(t.coolingDown('a', 79)).toBe(1);
    expect(t.coolingDown('b', 40)).toBeUndefined();
    expect(t.coolingDown('a', 80)).toBeUndefined();
    // The cool-down started the count again.
    t.record('a', 81);
    expect(t.coolingDown('a', 82)).toBeUndefined();
  });

  it('forgets failures older than the window', () => {
    const t = new LockFailureThrottle(limit);
    t.record('a', 0);
    t.record('a', 50);
    t.record('a', 101);
    expect(t.coolingDown('a', 101)).toBeUndefined();
    t.record('a', 102);
    expect(t.coolingDown('a', 102)).toBe(50);
  });
});
