import { describe, expect, it } from 'vitest';
import { proveInTurn } from './proof-turns.js';
import { reportingProver, type Prover } from './prover.js';

describe('proveInTurn', () => {
  it('clients sharing a prover hand it no more proofs at once than it has workers, in arrival order', async () => {
    const inner = { workers: 2, close: async () => undefined } as unknown as Prover;
    const a = reportingProver(inner, () => undefined);
    const b = reportingProver(inner, () => undefined);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const proofs = [a, b, a, b].map((p, i) =>
      proveInTurn(p, async () => {
        order.push(i);
        most = Math.max(most, ++running);
        await new Promise<void>((r) => releases.push(r));
        running--;
      }),
    );
    // Each proof releases once it has started: the next waiting one then takes its place.
    while (order.length < 4 || releases.length > 0) {
      await new Promise((r) => setImmediate(r));
      releases.shift()?.();
    }
    await Promise.all(proofs);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3]);
  });
});
