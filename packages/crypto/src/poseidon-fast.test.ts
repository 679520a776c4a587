import { buildPoseidon } from 'circomlibjs';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { poseidon1 } from 'poseidon-lite/poseidon1';
import { poseidon2 as litePoseidon2 } from 'poseidon-lite/poseidon2';
import { poseidon3 } from 'poseidon-lite/poseidon3';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import { poseidon5 } from 'poseidon-lite/poseidon5';
import { poseidon6 } from 'poseidon-lite/poseidon6';
import { poseidon9 } from 'poseidon-lite/poseidon9';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededFieldElements } from '../test/helpers/seeded.js';
import { poseidon } from './poseidon.js';
import {
  BIGINT_POSEIDON,
  loadLiteConstants,
  ORDER_DIGEST_INPUTS,
  poseidon9Unchecked,
  poseidonFastActive,
  selectImplementation,
  type PoseidonUnchecked,
} from './poseidon-fast.js';
import { poseidonT3Unchecked } from './poseidon-unchecked.js';

const r = FIELD_MODULUS;
const ARITIES = [1, 2, 3, 4, 5, 6] as const;
const LITE: Record<number, (inputs: bigint[]) => bigint> = {
  1: poseidon1,
  2: litePoseidon2,
  3: poseidon3,
  4: poseidon4,
  5: poseidon5,
  6: poseidon6,
};
const RANDOM_PER_ARITY = 64;

let circomlib: (inputs: bigint[]) => bigint;

beforeAll(async () => {
  const built = await buildPoseidon();
  circomlib = (inputs) => built.F.toObject(built(inputs));
});

const fastFor = (arity: number): PoseidonUnchecked => {
  const hash = BIGINT_POSEIDON[arity];
  if (hash === undefined) throw new Error(`no hash for ${arity} inputs`);
  return hash;
};

/** All zeros, all r - 1, and for each position: r - 1 or 1 there with zeros elsewhere, and the reverse. */
function edgeInputs(arity: number): bigint[][] {
  const out = [new Array<bigint>(arity).fill(0n), new Array<bigint>(arity).fill(r - 1n)];
  for (let i = 0; i < arity; i++) {
    for (const [at, rest] of [
      [r - 1n, 0n],
      [1n, 0n],
      [0n, r - 1n],
    ] as const) {
      const inputs = new Array<bigint>(arity).fill(rest);
      inputs[i] = at;
      out.push(inputs);
    }
  }
  return out;
}

describe('poseidon-fast is active for every arity', () => {
  for (const arity of ARITIES) {
    it(`${arity} input(s) use the optimised permutation (not the poseidon-lite fallback)`, () => {
      expect(poseidonFastActive(arity)).toBe(true);
      expect(selectImplementation(arity).optimized).toBe(true);
    });
  }

  it('has no implementation for 0 or more than 6 inputs', () => {
    expect(BIGINT_POSEIDON[0]).toBeUndefined();
    expect(BIGINT_POSEIDON[7]).toBeUndefined();
    expect(poseidonFastActive(0)).toBe(false);
    expect(poseidonFastActive(7)).toBe(false);
  });
});

describe('poseidon-fast agrees with poseidon-lite', () => {
  for (const arity of ARITIES) {
    it(`for ${arity} input(s) on ${RANDOM_PER_ARITY} seeded random inputs`, () => {
      const values = seededFieldElements(`poseidon-fast-${arity}`, RANDOM_PER_ARITY * arity);
      const fast = fastFor(arity);
      for (let i = 0; i < RANDOM_PER_ARITY; i++) {
        const inputs = values.slice(i * arity, (i + 1) * arity);
        expect(fast(inputs)).toBe(LITE[arity]!(inputs));
      }
    });

    it(`for ${arity} input(s) at the edges of the field (0, 1, r - 1)`, () => {
      const fast = fastFor(arity);
      for (const inputs of edgeInputs(arity)) expect(fast(inputs)).toBe(LITE[arity]!(inputs));
    });

    it(`for ${arity} input(s) on a hash chain (outputs fed back as inputs)`, () => {
      const fast = fastFor(arity);
      const inputs = Array.from({ length: arity }, (_, i) => r - 1n - BigInt(i));
      for (let i = 0; i < 16; i++) {
        const next = fast(inputs);
        expect(next).toBe(LITE[arity]!(inputs));
        inputs[i % arity] = next;
      }
    });
  }
});

describe('poseidon-fast agrees with circomlibjs', () => {
  for (const arity of ARITIES) {
    it(`for ${arity} input(s), seeded random and edge inputs, through poseidon()`, () => {
      const values = seededFieldElements(`poseidon-fast-circomlib-${arity}`, 8 * arity);
      const cases = [
        ...Array.from({ length: 8 }, (_, i) => values.slice(i * arity, (i + 1) * arity)),
        ...edgeInputs(arity).slice(0, 4),
      ];
      for (const inputs of cases) {
        const expected = circomlib(inputs);
        expect(fastFor(arity)(inputs)).toBe(expected);
        expect(poseidon(inputs)).toBe(expected);
      }
    });
  }
});

describe('poseidon-fast state handling', () => {
  it('gives the same results when arities are interleaved (scratch state is per width)', () => {
    const inputs = ARITIES.map((arity) => seededFieldElements(`poseidon-fast-interleave-${arity}`, arity));
    const first = inputs.map((x) => fastFor(x.length)(x));
    const again = [...inputs].reverse().map((x) => fastFor(x.length)(x));
    expect(again.reverse()).toEqual(first);
    expect(first).toEqual(inputs.map((x) => LITE[x.length]!(x)));
  });

  it('does not modify its inputs, and poseidonT3Unchecked matches the array form', () => {
    for (const arity of ARITIES) {
      const inputs = seededFieldElements(`poseidon-fast-readonly-${arity}`, arity);
      const copy = [...inputs];
      fastFor(arity)(Object.freeze(inputs));
      expect(inputs).toEqual(copy);
    }
    const [a, b] = seededFieldElements('poseidon-fast-pair', 2) as [bigint, bigint];
    expect(poseidonT3Unchecked(a, b)).toBe(fastFor(2)([a, b]));
    expect(poseidonT3Unchecked(a, b)).toBe(litePoseidon2([a, b]));
  });
});

describe('poseidon-fast load-time self-check', () => {
  it('falls back to poseidon-lite when the derived permutation disagrees', () => {
    for (const arity of [1, 3, 6]) {
      const tampered = selectImplementation(arity, (n) => {
        const constants = loadLiteConstants(n);
        const roundConstants = [...constants.roundConstants];
        roundConstants[roundConstants.length - 1] = (roundConstants[roundConstants.length - 1]! + 1n) % r;
        return { ...constants, roundConstants };
      });
      expect(tampered.optimized).toBe(false);
      const inputs = seededFieldElements(`poseidon-fast-fallback-${arity}`, arity);
      expect(tampered.hash(inputs)).toBe(LITE[arity]!(inputs));
    }
  });

  it('falls back to poseidon-lite when the constants cannot be loaded or are malformed', () => {
    const failing = selectImplementation(4, () => {
      throw new Error('missing constants');
    });
    expect(failing.optimized).toBe(false);
    const singular = selectImplementation(2, (n) => {
      const constants = loadLiteConstants(n);
      return { ...constants, mds: constants.mds.map((row) => row.map(() => 1n)) };
    });
    expect(singular.optimized).toBe(false);
    expect(singular.hash([5n, 7n])).toBe(litePoseidon2([5n, 7n]));
  });
});

describe("the order digest's nine-input Poseidon", () => {
  it('is optimised and equals poseidon-lite and circomlibjs on random and edge inputs', () => {
    expect(selectImplementation(ORDER_DIGEST_INPUTS, loadLiteConstants, poseidon9).optimized).toBe(true);
    const cases = [
      new Array<bigint>(9).fill(0n),
      new Array<bigint>(9).fill(r - 1n),
      ...Array.from({ length: 16 }, (_, i) => seededFieldElements(`poseidon9-${i}`, 9)),
    ];
    for (const inputs of cases) {
      const expected = poseidon9([...inputs]);
      expect(poseidon9Unchecked(inputs)).toBe(expected);
      expect(circomlib([...inputs])).toBe(expected);
    }
  });
});
