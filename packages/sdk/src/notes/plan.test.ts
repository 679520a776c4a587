import { describe, expect, it } from 'vitest';
import { planNotes, type NotePlan, type PlanNote } from './plan.js';

const notes = (...amounts: bigint[]): PlanNote[] =>
  amounts.map((amount, i) => ({ commitment: `n${i}`, amount }));

/** Every split conserves value: its outputs add up to its inputs. */
function conserves(plan: NotePlan, free: PlanNote[]): boolean {
  const value = (s: NotePlan['splits'][number]['inputs'][number]): bigint =>
    'note' in s ? free.find((n) => n.commitment === s.note)!.amount : plan.splits[s.split]!.outputs[s.slot]!;
  return plan.splits.every(
    (sp) => sp.inputs.reduce((t, s) => t + value(s), 0n) === sp.outputs.reduce((t, a) => t + a, 0n),
  );
}

describe('planNotes', () => {
  it('takes exact notes first, and splits one deposit for a five-level ladder in one join-split', () => {
    const free = notes(1000n);
    const plan = planNotes([100n, 110n, 120n, 130n, 140n], free, { allowLarger: true });
    expect(plan.splits).toEqual([
      { inputs: [{ note: 'n0' }], outputs: [100n, 110n, 120n, 130n, 140n, 400n] },
    ]);
    expect(plan.funding).toEqual([0, 1, 2, 3, 4].map((slot) => ({ split: 0, slot })));
    expect(conserves(plan, free)).toBe(true);
  });

  it('uses a larger note per amount without splitting when there are enough for all', () => {
    const plan = planNotes([100n, 200n], notes(250n, 150n, 100n), { allowLarger: true });
    expect(plan).toEqual({ funding: [{ note: 'n2' }, { note: 'n0' }], splits: [] });
    // Not when exact notes are asked for: the larger note is split.
    const exact = planNotes([200n], notes(250n), { allowLarger: false });
    expect(exact.splits).toEqual([{ inputs: [{ note: 'n0' }], outputs: [200n, 50n] }]);
  });

  it('merges up to four notes (largest first) when no single note covers, with the remainder as one more note', () => {
    const free = notes(30n, 40n, 50n, 5n);
    const plan = planNotes([100n], free, { allowLarger: true });
    expect(plan.splits).toEqual([
      { inputs: [{ note: 'n2' }, { note: 'n1' }, { note: 'n0' }], outputs: [100n, 20n] },
    ]);
    expect(planNotes([200n], free, { allowLarger: true }).funding).toEqual([undefined]);
  });

  it('an exact sum fills all eight slots; a remainder leaves seven; more amounts chain on the remainder', () => {
    const eight = planNotes(Array<bigint>(8).fill(10n), notes(80n), { allowLarger: false });
    expect(eight.splits).toHaveLength(1);
    expect(eight.splits[0]!.outputs).toHaveLength(8);
    const free = notes(1000n);
    const twelve = planNotes(Array<bigint>(12).fill(10n), free, { allowLarger: false });
    expect(twelve.splits).toEqual([
      { inputs: [{ note: 'n0' }], outputs: [...Array<bigint>(7).fill(10n), 930n] },
      { inputs: [{ split: 0, slot: 7 }], outputs: [...Array<bigint>(5).fill(10n), 880n] },
    ]);
    expect(twelve.funding.every((f) => f !== undefined)).toBe(true);
    expect(conserves(twelve, free)).toBe(true);
  });

  it('funds what it can and leaves the rest unfunded', () => {
    const plan = planNotes([60n, 60n, 60n], notes(100n, 50n), { allowLarger: true });
    expect(plan.funding.filter((f) => f === undefined)).toHaveLength(1);
    expect(conserves(plan, notes(100n, 50n))).toBe(true);
  });
});
