/**
 * WAT for the whole Poseidon permutation, 1..6 inputs, on the field functions of field-wat.ts,
 * with the optimised constants of src/poseidon-constants.ts in the module's data segment.
 *
 * Per width t, with A and B two arrays of t elements in linear memory:
 *  - inputs:        A_j = in_j · R² / R + c0_j (into Montgomery form, first constants added);
 *  - full round:    B_j = A_j^5; A_i = Σ_j M_ij B_j / R + c_(r+1),i (next round's constants);
 *  - 4th full round uses P (poseidon-constants.ts) and leaves T = row 0 + k_0, A_j = row j;
 *  - partial round: A_0 = T^5 (= y); T = S00 y + Σ w_j A_j + k_(i+1); A_j += v_j y;
 *  - then A_j += c4_j, and full rounds again; the last computes only row 0, with M's row in
 *    plain (not Montgomery) form so the product leaves Montgomery form for free.
 * Constants are laid out in the order they are used, so k_(i+1) after the last partial round is
 * the first constant of the next full round.
 *
 * Every value's bound is tracked while generating and checked against 2^261 (a value's limbs
 * must fit) and, for the output, 2p (one conditional subtraction makes it canonical).
 */
import { FIELD_MODULUS as P } from '@nightjar/protocol';
import { HALF_FULL_ROUNDS, type OptimizedConstants } from '../../src/poseidon-constants.js';
import {
  INPUT_OFFSET,
  INPUT_SLOT_BYTES,
  OUTPUT_OFFSET,
  WORK_OFFSET,
  hashExport,
} from '../../src/poseidon-wasm/layout.js';
import { partialRounds } from './partial-rounds-wat.js';
import { COLUMN_BUFFER_BYTES, fieldFunctions } from './field-wat.js';
import { ELEMENT_BYTES, MONTGOMERY_R as R, elementBytes, montgomeryBound } from './limbs.js';

const MAX_WIDTH = 7;
/** The state plus the two S-box outputs of a pair of partial rounds (partial-rounds-wat.ts). */
const A_SLOTS = MAX_WIDTH + 2;
const PAGE = 65536;

/** Constants in linear memory, appended in order; `at` gives an element's address. */
class ConstantArea {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  constructor(readonly base: number) {}

  /** Appends elements (Montgomery form unless `plain`) and returns the address of the first. */
  push(values: readonly bigint[], plain = false): number {
    const at = this.base + this.size;
    for (const v of values) {
      const chunk = elementBytes(plain ? v : (v * R) % P);
      this.chunks.push(chunk);
      this.size += chunk.length;
    }
    return at;
  }

  get end(): number {
    return this.base + this.size;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

/** Tracks an upper bound for each value the generated code computes. */
class Bounds {
  private static readonly LIMIT = R; // limbs must hold the value
  readonly constant = P;

  check(value: bigint, what: string): bigint {
    if (value >= Bounds.LIMIT) throw new Error(`permutation-wat: ${what} may overflow 2^261`);
    return value;
  }

  /** Σ c_m x_m / R + z with every c_m a constant. */
  dot(x: readonly bigint[], z: bigint, what: string): bigint {
    return this.check(
      montgomeryBound(
        x.reduce((s, b) => s + b * this.constant, 0n),
        z,
      ),
      what,
    );
  }

  sbox(x: bigint, what: string): bigint {
    const x2 = this.check(montgomeryBound(x * x), what);
    const x4 = this.check(montgomeryBound(x2 * x2), what);
    return this.check(montgomeryBound(x4 * x), what);
  }
}

interface Addresses {
  zero: number;
  rSquared: number;
  a: number;
  b: number;
  t: number;
}

const call = (name: string, ...args: (number | string)[]): string =>
  `(call $${name} ${args.map((a) => (typeof a === 'number' ? `(i32.const ${a})` : a)).join(' ')})`;

/** The hash function for one width, appending its constants to `area`. */
function hashFunction(k: OptimizedConstants, area: ConstantArea, at: Addresses): string {
  const { width: t, partialRounds: rounds } = k;
  const n = t - 1;
  const e = (base: number, i: number): number => base + i * ELEMENT_BYTES;
  const fullAt = (round: number): number => area.push(k.full.slice(round * t, (round + 1) * t));
  const c = [0, 1, 2, 3].map(fullAt);
  const m = area.push(k.mds);
  const pre = area.push(k.preSparse);
  const partial = area.push(k.partial);
  const after = [4, 5, 6, 7].map(fullAt); // after[0] directly follows the partial constants
  if (after[0] !== e(partial, rounds)) throw new Error('permutation-wat: layout');
  const lastRow = area.push(k.mds.slice(0, t), true);

  const bounds = new Bounds();
  const lines: string[] = [];
  const emit = (line: string): void => void lines.push(line);

  // Inputs into Montgomery form (lane 0 is the zero capacity element) plus the first constants.
  let a: bigint[] = [];
  for (let j = 0; j < t; j++) {
    if (j === 0) emit(call('dot1', e(at.a, 0), at.rSquared, at.zero, e(c[0]!, 0)));
    else {
      emit(call('unpack', e(at.b, j), INPUT_OFFSET + (j - 1) * INPUT_SLOT_BYTES));
      emit(call('dot1', e(at.a, j), at.rSquared, e(at.b, j), e(c[0]!, j)));
    }
    a.push(bounds.dot([1n << 256n], P, 'input'));
  }

  type Lane = (i: number) => number;
  const fullRound = (matrix: number, z: Lane, rows: number, source: Lane, out: Lane, zBound = P): void => {
    // Two S-boxes, and two rows, at a time in the two-lane functions; an odd one is scalar.
    for (let j = 0; j < t; j += 2) {
      if (j + 1 < t) emit(call('sbox2', e(at.b, j), e(at.b, j + 1), source(j), source(j + 1)));
      else emit(call('sbox', e(at.b, j), source(j)));
    }
    const x = a.map((v) => bounds.sbox(v, 'full S-box'));
    for (let i = 0; i < rows; i += 2) {
      if (i + 1 < rows) {
        const [c0, c1] = [e(matrix, i * t), e(matrix, (i + 1) * t)];
        emit(call(`dotx2_${t}`, out(i), out(i + 1), c0, c1, at.b, z(i), z(i + 1)));
      } else emit(call(`dot${t}`, out(i), e(matrix, i * t), at.b, z(i)));
    }
    a = Array.from({ length: rows }, () => bounds.dot(x, zBound, 'full round'));
  };
  const intoA: Lane = (i) => e(at.a, i);

  const inT: Lane = (i) => (i === 0 ? e(at.t, 0) : e(at.a, i)); // lane 0 in T, the others in A

  for (let r = 0; r < HALF_FULL_ROUNDS - 1; r++) fullRound(m, (i) => e(c[r + 1]!, i), t, intoA, intoA);
  // Last full round before the partial rounds: row 0 (plus k_0) to T, the rest stays in A.
  fullRound(pre, (i) => (i === 0 ? partial : at.zero), t, intoA, inT);

  // Partial rounds (partial-rounds-wat.ts), from u0 in T and s_1..s_n in A_1..A_n.
  const [u0, s] = partialRounds(
    {
      constants: k,
      push: (values) => area.push(values),
      emit,
      a: (i) => e(at.a, i),
      t: e(at.t, 0),
      firstK: e(partial, 1),
      sbox: (x) => bounds.sbox(x, 'partial S-box'),
      dot: (x, z) => bounds.dot(x, z, 'partial round'),
    },
    a[0]!,
    a.slice(1),
  );

  // The rest of the first constants after the partial rounds, then the last four full rounds.
  for (let j = 1; j <= n; j++) emit(call('add', e(at.a, j), e(at.a, j), e(after[0]!, j)));
  a = [u0, ...s.map((v) => bounds.check(v + P, 'lane after partial rounds'))];
  fullRound(m, (i) => e(after[1]!, i), t, inT, intoA);
  for (let r = 2; r < HALF_FULL_ROUNDS; r++) fullRound(m, (i) => e(after[r]!, i), t, intoA, intoA);
  // The plain (not Montgomery) row is below p too, so the same bounds hold.
  fullRound(
    lastRow,
    () => at.zero,
    1,
    intoA,
    () => e(at.t, 0),
    0n,
  );
  if (a[0]! >= 2n * P) throw new Error('permutation-wat: output may not be below 2p');
  emit(call('pack', OUTPUT_OFFSET, e(at.t, 0)));

  return `(func $${hashExport(n)} (export "${hashExport(n)}") (local $sp i32) (local $kp i32) (local $i i32)\n  ${lines.join('\n  ')})`;
}

/** The whole module as WAT text, with one hash export per number of inputs. */
export function permutationWat(widths: readonly OptimizedConstants[]): string {
  const at: Addresses = {
    a: WORK_OFFSET,
    b: WORK_OFFSET + A_SLOTS * ELEMENT_BYTES,
    t: WORK_OFFSET + (A_SLOTS + MAX_WIDTH) * ELEMENT_BYTES,
    zero: 0,
    rSquared: 0,
  };
  // The column buffer of wide dot products: 17 × i64x2, 16-byte aligned.
  const columns = Math.ceil((at.t + ELEMENT_BYTES) / 16) * 16;
  const area = new ConstantArea(columns + COLUMN_BUFFER_BYTES);
  at.zero = area.push([0n], true);
  at.rSquared = area.push([(R * R) % P], true);
  const hashes = widths.map((k) => hashFunction(k, area, at));
  const pages = Math.ceil(area.end / PAGE);
  const data = [...area.bytes()].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');
  return [
    '(module',
    `(memory (export "memory") ${pages})`,
    ...fieldFunctions({ buffer: columns, zero: at.zero }),
    ...hashes,
    `(data (i32.const ${area.base}) "${data}")`,
    ')',
  ].join('\n');
}
