import type { Prover } from '@nightjar/sdk';
import { describe, expect, it } from 'vitest';
import { levelsFor, lifetimeSeconds, TimedProver } from './proof-pace.js';
import { QUOTING } from './quote-plan.js';

describe('the demo paced by its proof time', () => {
  it('quotes fewer levels as proofs slow down, one at least', () => {
    expect(levelsFor(undefined)).toBe(2);
    expect(levelsFor(800)).toBe(QUOTING.levelsPerRound);
    expect(levelsFor(3_000)).toBe(2);
    expect(levelsFor(6_000)).toBe(1);
    expect(levelsFor(60_000)).toBe(1);
  });

  it('orders live 30 s, longer when their own proof and the settlement buffer would leave them no time to rest', () => {
    expect(lifetimeSeconds(undefined)).toBe(30);
    expect(lifetimeSeconds(1_000)).toBe(30);
    // 8 s buffer + twice 15 s of proof + 20 s resting.
    expect(lifetimeSeconds(15_000)).toBe(58);
    expect(lifetimeSeconds(10_000_000)).toBe(QUOTING.maxExpirySeconds);
  });

  it('TimedProver averages the recent proofs and passes on the workers', async () => {
    let release!: () => void;
    const inner = {
      workers: 3,
      proveValidInputV2: () =>
        new Promise((r) => (release = () => r({ proof: new Uint8Array(), publicInputs: [] }))),
    } as unknown as Prover;
    const timed = new TimedProver(inner);
    expect(timed.workers).toBe(3);
    expect(timed.recentMs()).toBeUndefined();
    const proof = timed.proveValidInputV2({} as never);
    const started = performance.now();
    while (performance.now() - started < 20) await new Promise((r) => setImmediate(r));
    release();
    await proof;
    expect(timed.recentMs()).toBeGreaterThanOrEqual(20);
  });
});
