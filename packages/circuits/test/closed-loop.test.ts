/** The proving benchmark's load generator (bench/closed-loop.ts) keeps its promises. */
import { describe, expect, it } from 'vitest';

import { closedLoop, median } from '../bench/closed-loop.js';

/** A manual clock and proofs that each take `costMs` of it; at most `lanes` may overlap. */
function fakeProver(costMs: number) {
  let clock = 0;
  let outstanding = 0;
  let peak = 0;
  const waiting: (() => void)[] = [];
  return {
    now: () => clock,
    get peak() {
      return peak;
    },
    prove: () =>
      new Promise<void>((resolve) => {
        outstanding++;
        peak = Math.max(peak, outstanding);
        waiting.push(() => {
          outstanding--;
          resolve();
        });
      }),
    /** Completes every outstanding proof after `costMs` (they ran side by side). */
    async step(): Promise<boolean> {
      // Let the loop submit what it will before time moves.
      for (let i = 0; i < 10; i++) await Promise.resolve();
      if (waiting.length === 0) return false;
      clock += costMs;
      for (const done of waiting.splice(0)) done();
      return true;
    },
  };
}

async function drive(p: ReturnType<typeof fakeProver>, run: Promise<unknown>): Promise<void> {
  let finished = false;
  void run.finally(() => (finished = true));
  while (!finished && (await p.step()));
  await run;
}

describe('closedLoop', () => {
  it('keeps exactly N proofs in flight and reports completed proofs over wall time', async () => {
    const p = fakeProver(500);
    const run = closedLoop(p.prove, { inFlight: 2, total: 6, now: p.now });
    await drive(p, run);
    const r = await run;
    expect(r.completed).toBe(6);
    expect(r.maxInFlight).toBe(2);
    expect(p.peak).toBe(2);
    // Three waves of two 500 ms proofs side by side: 1.5 s, 4 proofs a second.
    expect(r.wallMs).toBe(1500);
    expect(r.perSecond).toBe(4);
    expect(r.latenciesMs).toEqual([500, 500, 500, 500, 500, 500]);
  });

  it('a drain with one lane idle counts against the rate (odd total)', async () => {
    const p = fakeProver(500);
    const run = closedLoop(p.prove, { inFlight: 2, total: 3, now: p.now });
    await drive(p, run);
    const r = await run;
    expect(r.completed).toBe(3);
    expect(r.wallMs).toBe(1000);
    expect(r.perSecond).toBe(3);
  });

  it('one in flight is sequential; more lanes than proofs start only the proofs', async () => {
    const seq = fakeProver(200);
    const one = closedLoop(seq.prove, { inFlight: 1, total: 4, now: seq.now });
    await drive(seq, one);
    expect(seq.peak).toBe(1);
    expect((await one).wallMs).toBe(800);
    const wide = fakeProver(200);
    const many = closedLoop(wide.prove, { inFlight: 8, total: 3, now: wide.now });
    await drive(wide, many);
    expect((await many).maxInFlight).toBe(3);
  });

  it('a failed proof fails the run', async () => {
    await expect(
      closedLoop(() => Promise.reject(new Error('boom')), { inFlight: 2, total: 4 }),
    ).rejects.toThrow('boom');
  });

  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
