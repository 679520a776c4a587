import { buildPoseidon } from 'circomlibjs';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { poseidon2 as litePoseidon2 } from 'poseidon-lite/poseidon2';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededFieldElements } from '../test/helpers/seeded.js';
import { isCryptoError } from './errors.js';
import { POSEIDON_MAX_INPUTS, poseidon, poseidon2 } from './poseidon.js';
import { poseidonImplementation, poseidonT3Unchecked } from './poseidon-unchecked.js';

const r = FIELD_MODULUS;

type Reference = (inputs: bigint[]) => bigint;
let reference: Reference;

beforeAll(async () => {
  const circomlib = await buildPoseidon();
  reference = (inputs) => circomlib.F.toObject(circomlib(inputs));
});

describe('poseidon agrees with circomlibjs', () => {
  for (let arity = 1; arity <= POSEIDON_MAX_INPUTS; arity++) {
    it(`for ${arity} input(s), random inputs from a fixed seed`, () => {
      const inputs = seededFieldElements(`poseidon-arity-${arity}`, 8 * arity);
      for (let i = 0; i < 8; i++) {
        const chunk = inputs.slice(i * arity, (i + 1) * arity);
        expect(poseidon(chunk)).toBe(reference(chunk));
      }
    });
  }

  it('at the edges of the field (0 and r - 1)', () => {
    for (let arity = 1; arity <= POSEIDON_MAX_INPUTS; arity++) {
      for (const fill of [0n, r - 1n]) {
        const inputs = new Array<bigint>(arity).fill(fill);
        expect(poseidon(inputs)).toBe(reference(inputs));
      }
    }
  });
});

describe('known values', () => {
  // Pinned from circomlibjs buildPoseidon, so a regression shows even without circomlibjs installed.
  const known: [bigint[], bigint][] = [
    [[1n], 18586133768512220936620570745912940619677854269274689475585506675881198879027n],
    [[1n, 2n], 7853200120776062878684798364095072458815029376092732009249414926327459813530n],
    [[1n, 2n, 3n], 6542985608222806190361240322586112750744169038454362455181422643027100751666n],
    [[1n, 2n, 3n, 4n], 18821383157269793795438455681495246036402687001665670618754263018637548127333n],
    [[1n, 2n, 3n, 4n, 5n], 6183221330272524995739186171720101788151706631170188140075976616310159254464n],
    [
      [1n, 2n, 3n, 4n, 5n, 6n],
      20400040500897583745843009878988256314335038853985262692600694741116813247201n,
    ],
    [[0n, 0n], 14744269619966411208579211824598458697587494354926760081771325075741142829156n],
  ];
  for (const [inputs, expected] of known) {
    it(`Poseidon(${inputs.join(', ')})`, () => {
      expect(poseidon(inputs)).toBe(expected);
    });
  }
});

describe('poseidon2 fast path', () => {
  it('uses the WebAssembly permutation (not a fallback)', () => {
    expect(poseidonImplementation(2)).toBe('wasm');
  });

  it('matches poseidon-lite and circomlibjs on 64 seeded pairs', () => {
    const values = seededFieldElements('poseidon2-pairs', 128);
    for (let i = 0; i < 64; i++) {
      const a = values[2 * i]!;
      const b = values[2 * i + 1]!;
      const expected = litePoseidon2([a, b]);
      expect(poseidon2(a, b)).toBe(expected);
      expect(poseidon([a, b])).toBe(expected);
      expect(reference([a, b])).toBe(expected);
    }
  });

  it('matches poseidon-lite on a hash chain (outputs fed back as inputs)', () => {
    let a = 1n;
    let b = r - 1n;
    for (let i = 0; i < 40; i++) {
      const next = poseidonT3Unchecked(a, b);
      expect(next).toBe(litePoseidon2([a, b]));
      [a, b] = [b, next];
    }
  });

  it('is not symmetric (order of children matters)', () => {
    expect(poseidon2(1n, 2n)).not.toBe(poseidon2(2n, 1n));
  });
});

describe('input checks', () => {
  it('rejects inputs >= r, negative inputs and non-bigints', () => {
    for (const bad of [r, r + 1n, -1n, 2n ** 256n]) {
      expect(() => poseidon([bad])).toThrow(expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }));
      expect(() => poseidon2(bad, 0n)).toThrow(expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }));
      expect(() => poseidon2(0n, bad)).toThrow(expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }));
    }
    expect(() => poseidon([1 as unknown as bigint])).toThrow(
      expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }),
    );
  });

  it('rejects 0 and more than 6 inputs with a typed error', () => {
    for (const count of [0, 7, 16]) {
      let caught: unknown;
      try {
        poseidon(new Array<bigint>(count).fill(1n));
      } catch (err) {
        caught = err;
      }
      expect(isCryptoError(caught, 'POSEIDON_ARITY')).toBe(true);
    }
  });

  it('does not mutate its input array', () => {
    const inputs = [3n, 4n, 5n];
    const copy = [...inputs];
    poseidon(inputs);
    expect(inputs).toEqual(copy);
  });
});
