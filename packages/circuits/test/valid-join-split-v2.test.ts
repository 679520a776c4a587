/**
 * What VALID_JOIN_SPLIT v2 added to the first join-split (same signals, validJoinSplitWitness
 * builds its input): pairwise-distinct nullifiers, so the same note in two input slots (counted
 * twice in the sum) is rejected. valid-join-split.test.ts has the rest of the statement.
 */
import { joinSplitOutputInner } from '@nightjar/crypto';
import { describe, expect, it } from 'vitest';

import { validJoinSplitWitness } from '../src/join-split-witness.js';
import type { CircuitInput } from '../src/witness.js';
import { assertAt, getWire } from './helpers.js';
import { commit, note, params, type Name } from './join-split-fixture.js';
import { circuitV2Suite, r1csSatisfiedV2, witnessV2 } from './v2-helpers.js';

const DISTINCT = assertAt('DistinctWhenUsed', 'valid_join_split_v2.circom', '(a - b) * inv === used_b');

/**
 * An honest merge of `names` into one output, then slot `from` copied over slot `to` (root,
 * nullifier, amount, inner, path) and the output raised to the new input sum: value conserved,
 * one note counted twice.
 */
function countedTwice(names: Name[], from: number, to: number): CircuitInput {
  const sum = names.reduce((s, n) => s + note(n).amount, 0n);
  const copy = structuredClone(validJoinSplitWitness(params(names, [sum])).input) as Record<
    string,
    unknown[]
  >;
  for (const key of [
    'merkle_roots',
    'nullifiers',
    'in_amounts',
    'in_inner_hashes',
    'path_elements',
    'path_indices',
  ])
    copy[key]![to] = structuredClone(copy[key]![from]);
  const total = sum - note(names[to]!).amount + note(names[from]!).amount;
  copy.out_amounts![0] = total.toString();
  copy.output_commitments![0] = commit(total, joinSplitOutputInner(note(names[0]!).inner, 0)).toString();
  return copy as CircuitInput;
}

describe('VALID_JOIN_SPLIT v2 circuit', () => {
  circuitV2Suite('valid_join_split_v2', 30_654);

  it.each([
    ['a split of one note', params(['a'], [5_000n, 3_000n])],
    ['two notes into three', params(['b', 'c'], [1_000n, 2_000n, 1_500n])],
    ['a merge of four notes', params(['a', 'b', 'c', 'd'], [13_000n])],
  ])('honest: %s satisfies the r1cs, public wires = the witness builder’s', async (_label, p) => {
    const w = validJoinSplitWitness(p);
    const wtns = await witnessV2('valid_join_split_v2', w.input);
    expect(await r1csSatisfiedV2('valid_join_split_v2', wtns)).toBe(true);
    expect(w.publicInputs.map((_, i) => getWire(wtns, i + 1))).toEqual(w.publicInputs);
  });

  it('rejects a note counted twice (value conserved, every other check passes)', async () => {
    // Notes a (8,000) and b (3,000), with b's slot replaced by a: 16,000 out of one 8,000 note.
    const twice = countedTwice(['a', 'b'], 0, 1);
    await expect(witnessV2('valid_join_split_v2', twice)).rejects.toThrow(DISTINCT);
    // Any pair of used slots: the first and the last of four.
    const lastIsFirst = countedTwice(['a', 'b', 'c', 'd'], 0, 3);
    await expect(witnessV2('valid_join_split_v2', lastIsFirst)).rejects.toThrow(DISTINCT);
  });
});
