import { afterEach, describe, expect, it } from 'vitest';
import { NoteProver } from '../src/prover.js';

let prover: NoteProver | undefined;
afterEach(async () => {
  await prover?.close();
  prover = undefined;
});

describe('NoteProver.warm', () => {
  it('readies the keys in every worker and, natively, times a proof', async () => {
    prover = new NoteProver({ workers: 2, singleThread: true });
    expect(prover.workersHolding('valid_lock')).toBe(0);
    const ms = await prover.warm(['valid_lock']);
    expect(prover.running).toBe(0);
    if (prover.backend === 'native') expect(ms).toBeGreaterThan(0);
    else expect(ms).toBeUndefined();
    expect(prover.workersHolding('valid_lock')).toBe(2);
  }, 120_000);
});
