import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoff', () => {
  it('grows exponentially with jitter, capped, never below Retry-After', () => {
    expect(backoffDelay(0, { baseMs: 100 }, undefined, () => 0)).toBe(50);
    expect(backoffDelay(0, { baseMs: 100 }, undefined, () => 1)).toBe(100);
    expect(backoffDelay(3, { baseMs: 100 }, undefined, () => 1)).toBe(800);
    expect(backoffDelay(20, { baseMs: 100, maxMs: 5_000 }, undefined, () => 1)).toBe(5_000);
    expect(backoffDelay(0, { baseMs: 100 }, 2, () => 0)).toBe(2_000);
  });
});
