import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildPoseidon } from 'circomlibjs';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededFieldElements } from '../test/helpers/seeded.js';
import { poseidon } from './poseidon.js';
import { BIGINT_POSEIDON, LITE } from './poseidon-fast.js';
import {
  POSEIDON_UNCHECKED,
  choosePoseidon,
  poseidonImplementation,
  poseidonT3Unchecked,
} from './poseidon-unchecked.js';
import { POSEIDON_WASM_PATH, instantiatePoseidonWasm, type PoseidonWasm } from './poseidon-wasm/instance.js';

const r = FIELD_MODULUS;
const ARITIES = [1, 2, 3, 4, 5, 6] as const;
/**
 * Against our BigInt permutation: the fastest independent implementation (circomlibjs, poseidon-lite
 * and the Rust wasm one are all slower), still about 0.1 ms a call, so these take seconds.
 */
const RANDOM_PER_ARITY = 2_000;
const SLOW_TEST_MS = 120_000;
/** Against circomlibjs itself (about 0.1 ms a call, so fewer). */
const CIRCOMLIB_PER_ARITY = 500;

let circomlib: (inputs: bigint[]) => bigint;

beforeAll(async () => {
  const built = await buildPoseidon();
  circomlib = (inputs) => built.F.toObject(built(inputs));
});

const wasmFor = (arity: number): ((inputs: readonly bigint[]) => bigint) => {
  const hash = POSEIDON_UNCHECKED[arity];
  if (hash === undefined) throw new Error(`no hash for ${arity} inputs`);
  return hash;
};

/** Uniform field elements from a fast deterministic generator (SHA-256 per value is too slow here). */
function* randomInputs(seed: bigint, arity: number, count: number): Generator<bigint[]> {
  let state = seed;
  const next = (): bigint => {
    // xorshift-style mixing over 256 bits, reduced below r
    state ^= (state << 13n) & ((1n << 256n) - 1n);
    state ^= state >> 7n;
    state ^= (state << 17n) & ((1n << 256n) - 1n);
    return state % r;
  };
  for (let i = 0; i < count; i++) yield Array.from({ length: arity }, next);
}

/** All zeros, all r - 1, all 1, and for each position 0 / 1 / r - 1 there with the others 0 or r - 1. */
function edgeInputs(arity: number): bigint[][] {
  const out = [0n, 1n, r - 1n].map((fill) => new Array<bigint>(arity).fill(fill));
  for (let i = 0; i < arity; i++) {
    for (const [at, rest] of [
      [r - 1n, 0n],
      [1n, 0n],
      [0n, r - 1n],
      [1n, r - 1n],
    ] as const) {
      const inputs = new Array<bigint>(arity).fill(rest);
      inputs[i] = at;
      out.push(inputs);
    }
  }
  return out;
}

describe('the WebAssembly permutation is in use', () => {
  for (const arity of ARITIES) {
    it(`for ${arity} input(s)`, () => {
      expect(poseidonImplementation(arity)).toBe('wasm');
    });
  }

  it('has no implementation for 0 or more than 6 inputs', () => {
    expect(POSEIDON_UNCHECKED[0]).toBeUndefined();
    expect(POSEIDON_UNCHECKED[7]).toBeUndefined();
    expect(poseidonImplementation(0)).toBeUndefined();
    expect(poseidonImplementation(7)).toBeUndefined();
  });
});

describe('the WebAssembly permutation agrees', () => {
  for (const arity of ARITIES) {
    it(
      `with the BigInt permutation on ${RANDOM_PER_ARITY} random inputs of ${arity}`,
      () => {
        const wasm = wasmFor(arity);
        const bigint = BIGINT_POSEIDON[arity]!;
        let mismatches = 0;
        for (const inputs of randomInputs(
          BigInt(arity) * 0x9e3779b97f4a7c15n + 1n,
          arity,
          RANDOM_PER_ARITY,
        )) {
          if (wasm(inputs) !== bigint(inputs)) mismatches++;
        }
        expect(mismatches).toBe(0);
      },
      SLOW_TEST_MS,
    );

    it(`with circomlibjs on ${CIRCOMLIB_PER_ARITY} random inputs and the edges (0, 1, r - 1) of ${arity}`, () => {
      const wasm = wasmFor(arity);
      const cases = [
        ...edgeInputs(arity),
        ...randomInputs(BigInt(arity) * 0x2545f4914f6cdd1dn + 7n, arity, CIRCOMLIB_PER_ARITY),
      ];
      for (const inputs of cases) {
        const expected = circomlib(inputs);
        expect(wasm(inputs)).toBe(expected);
        expect(poseidon(inputs)).toBe(expected);
      }
    });

    it(`on a hash chain of ${arity} (outputs fed back as inputs)`, () => {
      const wasm = wasmFor(arity);
      const inputs = Array.from({ length: arity }, (_, i) => r - 1n - BigInt(i));
      for (let i = 0; i < 32; i++) {
        const next = wasm(inputs);
        expect(next).toBe(LITE[arity - 1]!([...inputs]));
        inputs[i % arity] = next;
      }
    });
  }

  it('when widths are interleaved, and the pair form matches the array form', () => {
    const inputs = ARITIES.map((arity) => seededFieldElements(`poseidon-wasm-interleave-${arity}`, arity));
    const first = inputs.map((x) => wasmFor(x.length)(x));
    const again = [...inputs].reverse().map((x) => wasmFor(x.length)(x));
    expect(again.reverse()).toEqual(first);
    expect(first).toEqual(inputs.map((x) => BIGINT_POSEIDON[x.length]!(x)));
    for (const [a, b] of [
      [0n, 0n],
      [r - 1n, 1n],
      [inputs[1]![0]!, inputs[1]![1]!],
    ] as const) {
      expect(poseidonT3Unchecked(a, b)).toBe(BIGINT_POSEIDON[2]!([a, b]));
    }
  });

  it('does not modify its inputs', () => {
    for (const arity of ARITIES) {
      const inputs = seededFieldElements(`poseidon-wasm-readonly-${arity}`, arity);
      const copy = [...inputs];
      wasmFor(arity)(Object.freeze(inputs));
      expect(inputs).toEqual(copy);
    }
  });
});

describe('fallback to the BigInt permutation', () => {
  const real = instantiatePoseidonWasm();

  it('when the module did not load', () => {
    for (const arity of ARITIES) {
      const choice = choosePoseidon(arity, undefined);
      expect(choice.implementation).toBe('bigint');
      expect(choice.hash([...new Array<bigint>(arity).fill(3n)])).toBe(
        LITE[arity - 1]!(new Array<bigint>(arity).fill(3n)),
      );
    }
  });

  it('when the module disagrees on the load-time probes (a constant flipped in its data)', () => {
    const bytes = Uint8Array.from(readFileSync(POSEIDON_WASM_PATH));
    // The data segment (the constants) is the module's tail; flip one byte well inside it.
    bytes[bytes.length - 4096] = bytes[bytes.length - 4096]! ^ 1;
    const tampered = instantiatePoseidonWasm(bytes);
    const disagreeing = ARITIES.filter((arity) => {
      const probe = seededFieldElements(`poseidon-wasm-tamper-${arity}`, arity);
      return tampered.hash[arity]!(probe) !== real.hash[arity]!(probe);
    });
    expect(disagreeing.length).toBeGreaterThan(0);
    for (const arity of disagreeing) expect(choosePoseidon(arity, tampered).implementation).toBe('bigint');
  });

  it('when a hash throws or is missing', () => {
    const broken: PoseidonWasm = {
      hash: [
        undefined,
        () => 0n,
        undefined,
        () => {
          throw new Error('trap');
        },
      ],
      pair: real.pair,
    };
    expect(choosePoseidon(1, broken).implementation).toBe('bigint');
    expect(choosePoseidon(2, broken).implementation).toBe('bigint');
    expect(choosePoseidon(3, broken).implementation).toBe('bigint');
    expect(choosePoseidon(4, real).implementation).toBe('wasm');
  });
});

describe('in a worker thread', () => {
  it('loads the WebAssembly permutation and hashes the same', async () => {
    const require = createRequire(import.meta.url);
    const tsxPkg = require.resolve('tsx/package.json');
    const tsxApi = pathToFileURL(join(dirname(tsxPkg), 'dist', 'esm', 'api', 'index.mjs')).href;
    const target = new URL('./poseidon-unchecked.ts', import.meta.url).href;
    const bootstrap = `
      const { parentPort } = require('node:worker_threads');
      import(${JSON.stringify(tsxApi)})
        .then((tsx) => tsx.tsImport(${JSON.stringify(target)}, ${JSON.stringify(import.meta.url)}))
        .then((m) => parentPort.postMessage({
          implementation: m.poseidonImplementation(5),
          hash: m.POSEIDON_UNCHECKED[5]([1n, 2n, 3n, 4n, 5n]).toString(),
        }));`;
    const worker = new Worker(bootstrap, { eval: true });
    try {
      const reply = await new Promise<{ implementation: string; hash: string }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(reply.implementation).toBe('wasm');
      expect(BigInt(reply.hash)).toBe(
        6183221330272524995739186171720101788151706631170188140075976616310159254464n,
      );
    } finally {
      await worker.terminate();
    }
  });
});
