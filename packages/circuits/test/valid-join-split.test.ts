/**
 * VALID_JOIN_SPLIT v2 through the committed witness calculator and r1cs (valid-join-split-v2.test.ts
 * has what v2 added: pairwise-distinct inputs): honest splits and merges
 * satisfy every constraint and expose the public inputs in the documented order; one forged input
 * per constraint family is rejected (circom asserts every constraint while computing the witness,
 * so a forged input cannot even produce a witness), and a tampered honest witness fails the r1cs.
 * validJoinSplitWitness refuses what the circuit would reject before any proving.
 */
import {
  VALID_JOIN_SPLIT_PUBLIC_INPUTS,
  joinSplitMemoHash,
  joinSplitOutputInner,
  noteNullifier,
  poseidon,
  validJoinSplitPublicSignals,
} from '@nightjar/crypto';
import { FIELD_MODULUS as R, U64_MAX, mintToFields } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CIRCUITS } from '../src/artifacts.js';
import { validJoinSplitWitness, type ValidJoinSplitParams } from '../src/join-split-witness.js';
import { ProverInputError, type CircuitInput } from '../src/witness.js';
import {
  assertAt,
  calculateWitness,
  getWire,
  num2BitsAssert,
  publicWire,
  r1csSatisfied,
  setWire,
  terminateCurve,
} from './helpers.js';
import {
  MEMO,
  MINT,
  NOTES,
  OTHER_MINT,
  OWNER,
  ROOT,
  SK,
  STRANGER,
  commit,
  note,
  params,
  rootBeforeNotes,
  shardsOf,
  tree,
  type Name,
} from './join-split-fixture.js';

const F = 'valid_join_split_v2.circom';
const LINE = {
  root: assertAt('JoinSplitInputV2', F, 'rootDiff === 0'),
  unusedRoot: assertAt('JoinSplitInputV2', F, '(1 - used) * merkle_root === 0'),
  nullifier: assertAt('JoinSplitInputV2', F, 'nullifier === used * nf.out'),
  inRange: num2BitsAssert('JoinSplitInputV2', 'amountBits.in <== amount', F),
  outRange: num2BitsAssert('ValidJoinSplitV2', 'outAmounts[j].in <== out_amounts[j]', F),
  output: assertAt('ValidJoinSplitV2', F, 'output_commitments[j] === (1 - outZero[j].out) * outNote[j].out'),
  input0: assertAt('ValidJoinSplitV2', F, 'ins[0].used === 1'),
  prefix: assertAt('ValidJoinSplitV2', F, 'ins[i].used * (1 - ins[i - 1].used) === 0'),
  conservation: assertAt('ValidJoinSplitV2', F, 'inSum === outSum'),
};

/** An honest witness input for `inputs` → `outputAmounts`, with `patch` applied. */
function forged(
  inputs: Name[],
  outputAmounts: bigint[],
  patch: (input: CircuitInput) => void,
  memo = MEMO,
): CircuitInput {
  const input = structuredClone(validJoinSplitWitness(params(inputs, outputAmounts, memo)).input);
  patch(input);
  return input;
}

const list = (input: CircuitInput, name: string) => input[name] as string[];
const set = (input: CircuitInput, name: string, i: number, value: bigint) => {
  list(input, name)[i] = value.toString();
};
const reject = (input: CircuitInput) => calculateWitness('valid_join_split_v2', input);

const SPLIT_8 = [1_000n, 2_000n, 500n, 1_500n, 700n, 300n, 1_200n, 800n];
const HONEST: Record<string, [Name[], bigint[]]> = {
  '1 → 8 split': [['a'], SPLIT_8],
  '4 → 1 merge': [['a', 'b', 'c', 'd'], [13_000n]],
  '2 → 3 with empty slots between': [
    ['b', 'c'],
    [1_000n, 0n, 1_500n, 0n, 0n, 0n, 0n, 2_000n],
  ],
  '2 → 3 of the largest u64 notes (sums above 2^64 do not wrap)': [
    ['max1', 'max2'],
    [U64_MAX, U64_MAX - 1n, 1n],
  ],
};

describe('VALID_JOIN_SPLIT v2 circuit: honest splits and merges', () => {
  afterAll(terminateCurve);

  it.each(Object.entries(HONEST))(
    '%s: satisfies the r1cs; public wires in the documented order = validJoinSplitPublicSignals',
    async (_label, [inputs, outputAmounts]) => {
      const w = validJoinSplitWitness(params(inputs, outputAmounts));
      const wtns = await calculateWitness('valid_join_split_v2', w.input);
      expect(await r1csSatisfied('valid_join_split_v2', wtns)).toBe(true);
      const names = CIRCUITS.valid_join_split_v2.publicInputs;
      expect(names).toEqual([...VALID_JOIN_SPLIT_PUBLIC_INPUTS]);
      const wires = names.map((n) => getWire(wtns, publicWire('valid_join_split_v2', n)));
      expect(wires).toEqual(w.publicInputs);

      // The same signals, computed independently from the notes and the formulas.
      const parent = note(inputs[0]!).inner;
      const outputs = Array.from({ length: 8 }, (_, j) => {
        const amount = outputAmounts[j] ?? 0n;
        return amount === 0n ? 0n : commit(amount, poseidon([7n, parent, BigInt(j)]));
      });
      const expected = validJoinSplitPublicSignals({
        inputs: inputs.map((n) => ({
          merkleRoot: ROOT,
          nullifier: noteNullifier(note(n).commitment, note(n).inner),
        })),
        outputs,
        memoHash: joinSplitMemoHash(MEMO, shardsOf(outputAmounts)),
      });
      expect(wires).toEqual(expected);
      expect(wires.slice(0, 4)).toEqual([...inputs.map(() => ROOT), ...Array(4 - inputs.length).fill(0n)]);
      // The witness's outputs are the non-zero slots, with the inners of the formula.
      expect(w.outputs.map((o) => o.slot)).toEqual(outputs.flatMap((c, j) => (c === 0n ? [] : [j])));
      for (const o of w.outputs) {
        expect(o.inner).toBe(joinSplitOutputInner(parent, o.slot));
        expect(o.commitment).toBe(outputs[o.slot]);
        expect(o.nullifier).toBe(noteNullifier(o.commitment, o.inner));
      }
    },
    120_000,
  );

  it('any memo hash below r gives a valid witness (it is bound by the proof, not derived)', async () => {
    const other = Uint8Array.from(MEMO);
    other[100] = other[100]! ^ 1;
    const w = validJoinSplitWitness(params(['a'], [8_000n], other));
    const wtns = await calculateWitness('valid_join_split_v2', w.input);
    expect(await r1csSatisfied('valid_join_split_v2', wtns)).toBe(true);
    const shards = shardsOf([8_000n]);
    expect(getWire(wtns, publicWire('valid_join_split_v2', 'memo_hash'))).toBe(
      joinSplitMemoHash(other, shards),
    );
    expect(joinSplitMemoHash(other, shards)).not.toBe(joinSplitMemoHash(MEMO, shards));
  });
});

describe('VALID_JOIN_SPLIT v2 circuit: attacks', () => {
  let honest: Uint8Array;
  beforeAll(async () => {
    honest = await calculateWitness(
      'valid_join_split_v2',
      validJoinSplitWitness(params(['a'], SPLIT_8)).input,
    );
  });
  afterAll(terminateCurve);

  it('the private inputs follow the public ones in declaration order (what setWire tampers)', () => {
    // wire 0 = 1, wires 1..17 public, then spending_key, mint_lo, mint_hi, in_amounts[4],
    // in_inner_hashes[4], path_elements[4][20], path_indices[4][20], out_amounts.
    const { mintLo, mintHi } = mintToFields(MINT);
    expect([18, 19, 20].map((i) => getWire(honest, i))).toEqual([SK, mintLo, mintHi]);
    expect(getWire(honest, 21)).toBe(8_000n);
    expect(getWire(honest, 25)).toBe(NOTES.a.inner);
    // out_amounts[7] has no wire: circom's simplification substitutes it with the linear
    // conservation constraint (sum of inputs minus the other outputs).
    expect(Array.from({ length: 7 }, (_, j) => getWire(honest, 189 + j))).toEqual(SPLIT_8.slice(0, 7));
  });

  it('a tampered honest witness fails the r1cs: any public input, or an output amount', async () => {
    const wire = (name: string) => publicWire('valid_join_split_v2', name);
    const victim = noteNullifier(note('stranger').commitment, NOTES.stranger.inner);
    const tampered: [string, number, bigint][] = [
      ['memo hash', wire('memo_hash'), joinSplitMemoHash(MEMO, shardsOf(SPLIT_8)) + 1n],
      [
        'an output commitment',
        wire('output_commitments[3]'),
        getWire(honest, wire('output_commitments[3]')) + 1n,
      ],
      ['the nullifier', wire('nullifiers[0]'), victim],
      ['a victim nullifier in an unused slot', wire('nullifiers[2]'), victim],
      ['a root in an unused slot', wire('merkle_roots[1]'), ROOT],
      ['more value out (out_amounts[0] + 1)', 189, SPLIT_8[0]! + 1n],
    ];
    for (const [what, index, value] of tampered)
      expect(await r1csSatisfied('valid_join_split_v2', setWire(honest, index, value)), what).toBe(false);
  });

  it('value out > in: outputs committed consistently but summing above the input', async () => {
    const parent = NOTES.a.inner;
    await expect(
      reject(
        forged(['a'], SPLIT_8, (input) => {
          set(input, 'out_amounts', 0, 1_001n);
          set(input, 'output_commitments', 0, commit(1_001n, joinSplitOutputInner(parent, 0)));
        }),
      ),
    ).rejects.toThrow(LINE.conservation);
    // A new output in an empty slot of a 1 → 1 split.
    await expect(
      reject(
        forged(['a'], [8_000n], (input) => {
          set(input, 'out_amounts', 4, 1n);
          set(input, 'output_commitments', 4, commit(1n, joinSplitOutputInner(parent, 4)));
        }),
      ),
    ).rejects.toThrow(LINE.conservation);
  });

  it('field wrap-around: outputs summing to the input mod r with one of r - k fail its 64-bit range check', async () => {
    const parent = NOTES.a.inner;
    for (const k of [5n, 1n << 63n]) {
      const big = 8_000n + k; // above the input (still a u64), paid for by an output of r - k
      const huge = R - k;
      // The sum holds in the field: only the range check stands in the way.
      expect((big + huge) % R).toBe(8_000n);
      const input = forged(['a'], [8_000n], (i) => {
        set(i, 'out_amounts', 0, big);
        set(i, 'output_commitments', 0, commit(big, joinSplitOutputInner(parent, 0)));
        set(i, 'out_amounts', 1, huge);
        set(i, 'output_commitments', 1, commit(huge, joinSplitOutputInner(parent, 1)));
      });
      await expect(reject(input), `k = ${k}`).rejects.toThrow(LINE.outRange);
    }
  });

  it('input amount out of range: a 2^64 note in the tree cannot be consumed', async () => {
    const big = note('big');
    const nf = noteNullifier(big.commitment, big.inner);
    await expect(
      reject(
        forged(['a'], [8_000n], (input) => {
          // Input 0 becomes the 2^64 note, paid out as two outputs of 2^63.
          set(input, 'in_amounts', 0, big.amount);
          set(input, 'in_inner_hashes', 0, big.inner);
          (input.path_elements as string[][])[0] = tree.proof(big.index).siblings.map(String);
          (input.path_indices as string[][])[0] = tree.proof(big.index).pathIndices.map(String);
          set(input, 'merkle_roots', 0, ROOT);
          set(input, 'nullifiers', 0, nf);
          for (const j of [0, 1]) {
            set(input, 'out_amounts', j, 1n << 63n);
            set(input, 'output_commitments', j, commit(1n << 63n, joinSplitOutputInner(big.inner, j)));
          }
        }),
      ),
    ).rejects.toThrow(LINE.inRange);
  });

  it('a note of another owner or another mint cannot be opened: its commitment is not under the root', async () => {
    // The circuit has one spending key and one mint: the stranger's note (or the owner's note of
    // another mint) as input 1, with its real path and the real root, recomputes another leaf.
    for (const name of ['stranger', 'otherMint'] as const) {
      const victim = note(name);
      await expect(
        reject(
          forged(['a', name], [11_000n], (input) => {
            set(input, 'merkle_roots', 1, ROOT);
            set(input, 'nullifiers', 1, noteNullifier(victim.commitment, victim.inner));
          }),
        ),
        name,
      ).rejects.toThrow(LINE.root);
    }
    // ...and as input 0 as well.
    await expect(
      reject(
        forged(['stranger'], [3_000n], (input) => {
          set(input, 'merkle_roots', 0, ROOT);
          set(input, 'nullifiers', 0, noteNullifier(note('stranger').commitment, NOTES.stranger.inner));
        }),
      ),
    ).rejects.toThrow(LINE.root);
  });

  it('a path to a different root: an old root without the note, or a tampered path', async () => {
    await expect(
      reject(forged(['a'], SPLIT_8, (input) => set(input, 'merkle_roots', 0, rootBeforeNotes))),
    ).rejects.toThrow(LINE.root);
    await expect(
      reject(
        forged(['a', 'b'], [11_000n], (input) => {
          const path = (input.path_elements as string[][])[1]!;
          path[5] = (BigInt(path[5]!) + 1n).toString();
        }),
      ),
    ).rejects.toThrow(LINE.root);
  });

  it('an unused input slot with a non-zero root or nullifier (a victim’s nullifier spent for free)', async () => {
    const victim = noteNullifier(note('stranger').commitment, NOTES.stranger.inner);
    await expect(
      reject(forged(['a'], SPLIT_8, (input) => set(input, 'merkle_roots', 1, ROOT))),
    ).rejects.toThrow(LINE.unusedRoot);
    await expect(
      reject(forged(['a'], SPLIT_8, (input) => set(input, 'nullifiers', 3, victim))),
    ).rejects.toThrow(LINE.nullifier);
  });

  it('a used input after an unused slot (inputs must form a prefix)', async () => {
    await expect(
      reject(
        forged(['a', 'b'], [11_000n], (input) => {
          // Move input 1 to slot 2, leaving slot 1 empty.
          for (const name of ['in_amounts', 'in_inner_hashes', 'merkle_roots', 'nullifiers']) {
            list(input, name)[2] = list(input, name)[1]!;
            list(input, name)[1] = '0';
          }
          for (const name of ['path_elements', 'path_indices']) {
            const paths = input[name] as string[][];
            paths[2] = paths[1]!;
            paths[1] = Array<string>(20).fill('0');
          }
        }),
      ),
    ).rejects.toThrow(LINE.prefix);
  });

  it('input 0 unused: all zeros, or the only input in slot 1', async () => {
    await expect(
      reject(
        forged(['a'], [8_000n], (input) => {
          for (const name of [
            'in_amounts',
            'merkle_roots',
            'nullifiers',
            'out_amounts',
            'output_commitments',
          ])
            input[name] = list(input, name).map(() => '0');
        }),
      ),
    ).rejects.toThrow(LINE.input0);
    await expect(
      reject(
        forged(['a'], [8_000n], (input) => {
          for (const name of ['in_amounts', 'in_inner_hashes', 'merkle_roots', 'nullifiers']) {
            list(input, name)[1] = list(input, name)[0]!;
            list(input, name)[0] = '0';
          }
          const paths = input.path_elements as string[][];
          paths[1] = paths[0]!;
          const bits = input.path_indices as string[][];
          bits[1] = bits[0]!;
        }),
      ),
    ).rejects.toThrow(LINE.input0);
  });

  it('an output commitment not of the formula: wrong index, parent, owner, mint, or amount', async () => {
    const parent = NOTES.a.inner;
    const wrong: [string, bigint][] = [
      ['inner of index 2 in slot 1', commit(2_000n, joinSplitOutputInner(parent, 2))],
      ['inner from input 1’s parent', commit(2_000n, joinSplitOutputInner(NOTES.b.inner, 1))],
      ['the parent inner itself', commit(2_000n, parent)],
      ['a match output inner (domain 4)', commit(2_000n, poseidon([4n, parent, 1n]))],
      ['another owner', commit(2_000n, joinSplitOutputInner(parent, 1), STRANGER)],
      ['another mint', commit(2_000n, joinSplitOutputInner(parent, 1), OWNER, OTHER_MINT)],
      ['another amount', commit(2_001n, joinSplitOutputInner(parent, 1))],
      ['slot 0’s commitment (swapped)', commit(1_000n, joinSplitOutputInner(parent, 0))],
    ];
    for (const [what, c] of wrong)
      await expect(
        reject(forged(['a'], SPLIT_8, (input) => set(input, 'output_commitments', 1, c))),
        what,
      ).rejects.toThrow(LINE.output);
  });

  it('a non-zero commitment in a zero-amount output slot', async () => {
    const parent = NOTES.a.inner;
    // A zero-value note of the formula, another note of the owner's, or any value.
    for (const c of [
      commit(0n, joinSplitOutputInner(parent, 5)),
      commit(1n, joinSplitOutputInner(parent, 5)),
      1n,
    ])
      await expect(
        reject(forged(['a'], [8_000n], (input) => set(input, 'output_commitments', 5, c))),
      ).rejects.toThrow(LINE.output);
    // A zero commitment where an output has value (the value would vanish from the tree).
    await expect(
      reject(forged(['a'], SPLIT_8, (input) => set(input, 'output_commitments', 7, 0n))),
    ).rejects.toThrow(LINE.output);
  });

  it('a nullifier that is not the note’s', async () => {
    const a = note('a');
    const wrong = [
      noteNullifier(a.commitment, a.inner) + 1n,
      noteNullifier(note('stranger').commitment, NOTES.stranger.inner),
      noteNullifier(a.commitment, a.inner + 1n),
      0n,
    ];
    for (const nf of wrong)
      await expect(
        reject(forged(['a'], SPLIT_8, (input) => set(input, 'nullifiers', 0, nf))),
      ).rejects.toThrow(LINE.nullifier);
  });
});

describe('validJoinSplitWitness refuses what the circuit would reject', () => {
  const refused = (p: ValidJoinSplitParams, message: RegExp) => {
    expect(() => validJoinSplitWitness(p)).toThrow(ProverInputError);
    expect(() => validJoinSplitWitness(p)).toThrow(message);
  };

  it('value not conserved, either way', () => {
    refused(params(['a'], [8_001n]), /add up/);
    refused(params(['a'], [7_999n]), /add up/);
    refused(params(['a', 'b'], SPLIT_8), /add up/);
  });

  it('the same note twice', () => {
    refused(params(['a', 'a'], [16_000n]), /twice/);
    refused(params(['b', 'c', 'b'], [7_500n]), /twice/);
  });

  it('no input or more than 4; no output or more than 8', () => {
    refused(params([], [0n]), /1 to 4/);
    refused(params(['a', 'b', 'c', 'd', 'max1'], [1n]), /1 to 4/);
    refused(params(['a'], []), /1 to 8/);
    refused(params(['a'], [...SPLIT_8, 0n]), /1 to 8/);
  });

  it('an output amount outside u64, or not a bigint', () => {
    refused(params(['a'], [8_001n, -1n]), /u64/);
    refused(params(['max1', 'max2'], [U64_MAX + 1n, U64_MAX - 1n]), /u64/);
    refused(params(['a'], [8_000 as unknown as bigint]), /u64/);
  });

  it('a path that does not lead to the expected root; a note of 0 or above u64', () => {
    const p = params(['a', 'b'], [11_000n]);
    refused({ ...p, inputs: [p.inputs[0]!, { ...p.inputs[1]!, merkleRoot: rootBeforeNotes }] }, /root/);
    // The stranger's leaf, opened with the owner's key, leads elsewhere than the real root.
    const s = params(['stranger'], [3_000n]);
    refused({ ...s, inputs: [{ ...s.inputs[0]!, merkleRoot: ROOT }] }, /root/);
    // With the right expected roots it is accepted.
    expect(
      validJoinSplitWitness({ ...p, inputs: p.inputs.map((i) => ({ ...i, merkleRoot: ROOT })) }).inputs,
    ).toHaveLength(2);
    refused(params(['big'], [1n << 63n, 1n << 63n]), /u64/);
    refused({ ...p, inputs: [{ ...p.inputs[0]!, amount: 0n }] }, /u64/);
  });
});
