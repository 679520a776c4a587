import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock, systemClock } from './clock.js';

describe('ManualClock', () => {
  it('runs due timers in time order, each at its own time, and honours cancels', () => {
    const clock = new ManualClock(1_000);
    const log: string[] = [];
    clock.at(1_300, () => log.push(`b@${clock.now()}`));
    clock.at(1_100, () => {
      log.push(`a@${clock.now()}`);
      clock.at(1_200, () => log.push(`nested@${clock.now()}`));
    });
    const cancel = clock.at(1_150, () => log.push('cancelled'));
    cancel();
    clock.advance(250);
    expect(log).toEqual(['a@1100', 'nested@1200']);
    expect(clock.now()).toBe(1_250);
    clock.advance(50);
    expect(log).toEqual(['a@1100', 'nested@1200', 'b@1300']);
    expect(clock.pending).toBe(0);
  });
});

describe('systemClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never fires before its time, even when the timer wakes early', () => {
    vi.useFakeTimers();
    let now = 0;
    const clock = systemClock(() => now);
    const fired: number[] = [];
    clock.at(5, () => fired.push(now));
    // The timer wakes after 5 ms while this clock still says 0: it must re-arm, not fire.
    vi.advanceTimersByTime(20);
    expect(fired).toEqual([]);
    now = 5;
    vi.advanceTimersByTime(5);
    expect(fired).toEqual([5]);
  });

  it('cancels', () => {
    vi.useFakeTimers();
    const clock = systemClock(() => 0);
    const fired: number[] = [];
    clock.at(0, () => fired.push(1))();
    vi.advanceTimersByTime(10);
    expect(fired).toEqual([]);
  });
});
