/**
 * The generator of Montgomery multiplication code, for one field operation (scalar i64) or two at
 * once (two-lane v128), see lanes.ts.
 *
 * "Finely integrated product scanning": column by column, the operand products and the reduction
 * products q_j · p_(i-j) go into one accumulator; the low columns yield the q digits, the high
 * columns the result. A dot product Σ c_m · x_m shares one reduction among its terms, and adding z
 * (z·R before the division) is free, so a matrix row plus the next round's constant is one pass.
 *
 * Operand products use one level of 3-way Karatsuba (karatsubaColumns); squares are schoolbook
 * with doubled cross products. The generator tracks a bound on the accumulator and splits a column
 * in two before it could pass 2^64.
 */
import { COLUMNS, LIMBS, MASK, P_LIMBS, U64_MAX, W } from './limbs.js';
import type { Lanes } from './lanes.js';

/** An accumulator-typed expression and an upper bound on its value (per lane). */
export interface Term {
  expr: string;
  bound: bigint;
}

export type Pairs = ReadonlyArray<readonly [readonly string[], readonly string[]]>;

export const get = (name: string): string => `(local.get $${name})`;

/** Collects the locals and instructions of one function body. */
export class Body {
  private readonly locals = new Map<string, string>();
  readonly lines: string[] = [];

  constructor(readonly lanes: Lanes) {}

  set(name: string, expr: string, type: string = this.lanes.type): void {
    this.locals.set(name, type);
    this.lines.push(`(local.set $${name} ${expr})`);
  }

  /** Sets a fresh local and returns its read. */
  let(name: string, expr: string, type?: string): string {
    this.set(name, expr, type);
    return get(name);
  }

  declarations(): string {
    return [...this.locals].map(([name, type]) => `(local $${name} ${type})`).join(' ');
  }
}

/**
 * The Montgomery reduction around `columnTerms` (the operand products of each column): returns
 * accumulator reads of (Σ products + z·R) / R, limb by limb, where the division is exact after
 * adding q·p. `z` are limb-typed reads to add (or none).
 *
 * Each column is summed in a fresh chain and only then added to the running carry, so a column's
 * products do not wait for the previous column: the one serial path left is q_(i-1) → q_i, and
 * the term that depends on q_(i-1) is added last.
 */
export function montgomery(
  body: Body,
  columnTerms: (column: number) => Term[],
  z: readonly string[] | undefined,
  out: string,
): string[] {
  const L = body.lanes;
  const q: string[] = [];
  const result: string[] = [];
  let acc = 0n; // bound on $acc (the carry into the current column, then the column's sum)
  let hi = 0n; // bound on $hi, the carry into the next column set aside by a split
  let started = false; // whether $acc holds anything yet

  const split = (): void => {
    // The part of $acc above the column's 29 bits moves to $hi (it belongs to the next column).
    const carry = L.shr(get('acc'));
    body.set('hi', hi === 0n ? carry : L.add(get('hi'), carry));
    hi += acc >> W;
    body.set('acc', L.mask(get('acc')));
    acc = MASK;
  };

  /** $acc += Σ terms, summed in a chain of their own first; splits before anything can pass 2^64. */
  const add = (terms: readonly Term[]): void => {
    let i = 0;
    while (i < terms.length) {
      if (started && acc + terms[i]!.bound > U64_MAX) split();
      const room = U64_MAX - (started ? acc : 0n);
      let bound = 0n;
      let first = true;
      for (; i < terms.length && bound + terms[i]!.bound <= room; i++) {
        body.set('col', first ? terms[i]!.expr : L.add(get('col'), terms[i]!.expr));
        first = false;
        bound += terms[i]!.bound;
      }
      body.set('acc', started ? L.add(get('acc'), get('col')) : get('col'));
      acc = (started ? acc : 0n) + bound;
      started = true;
    }
  };

  const carry = (): void => {
    const shifted = L.shr(get('acc'));
    body.set('acc', hi === 0n ? shifted : L.add(shifted, get('hi')));
    acc = (acc >> W) + hi;
    hi = 0n;
  };

  for (let column = 0; column < COLUMNS; column++) {
    const early: Term[] = [...columnTerms(column)];
    const late: Term[] = [];
    for (let j = Math.max(0, column - LIMBS + 1); j <= Math.min(column - 1, LIMBS - 1); j++) {
      const term = { expr: L.mul(q[j]!, L.pLimb(column - j)), bound: MASK * P_LIMBS[column - j]! };
      (j === column - 1 ? late : early).push(term);
    }
    if (z !== undefined && column >= LIMBS) early.push({ expr: L.toAcc(z[column - LIMBS]!), bound: MASK });
    add(early);
    add(late);
    if (column < LIMBS) {
      const qAcc = body.let(`qa${column}`, L.q(get('acc')));
      q.push(L.width === 1 ? qAcc : body.let(`q${column}`, L.toLimb(qAcc)));
      add([{ expr: L.timesP0(qAcc), bound: MASK * P_LIMBS[0]! }]);
    } else {
      result.push(body.let(`${out}${column - LIMBS}`, L.mask(get('acc'))));
    }
    carry();
  }
  // Column 17: the top limb. It is below 2^29 because every value stays below 2^261.
  const top = z === undefined ? get('acc') : L.add(get('acc'), L.toAcc(z[LIMBS - 1]!));
  result.push(body.let(`${out}${LIMBS - 1}`, top));
  return result;
}

/**
 * The column sums of Σ_m a_m · b_m by one level of 3-way Karatsuba over blocks of 3 limbs: six
 * 3×3 block products (54 multiplies) per term instead of 81. The identity holds column by column
 * (block sums are not carried), and although the subtractions may wrap mod 2^64 on the way, each
 * final column is the schoolbook column sum, which the bounds keep below 2^64.
 */
export function karatsubaColumns(body: Body, pairs: Pairs, tag: string): (column: number) => Term[] {
  const L = body.lanes;
  const products = ['00', '11', '22', '01', '02', '12'] as const;
  const columns = new Map<string, string[]>(products.map((p) => [p, []]));
  pairs.forEach(([a, b], m) => {
    const blocks = (x: readonly string[], name: string): Map<string, readonly string[]> => {
      const out = new Map<string, readonly string[]>();
      for (const block of [0, 1, 2]) out.set(`${block}${block}`, x.slice(3 * block, 3 * block + 3));
      for (const [i, j] of [
        [0, 1],
        [0, 2],
        [1, 2],
      ] as const) {
        const sums = [0, 1, 2].map((u) =>
          body.let(`${tag}${name}${m}s${i}${j}_${u}`, L.limbAdd(x[3 * i + u]!, x[3 * j + u]!)),
        );
        out.set(`${i}${j}`, sums);
      }
      return out;
    };
    const ab = blocks(a, 'a');
    const bb = blocks(b, 'b');
    for (const p of products) {
      const [x, y] = [ab.get(p)!, bb.get(p)!];
      const cols = columns.get(p)!;
      for (let c = 0; c < 5; c++) {
        let expr = '';
        for (let u = Math.max(0, c - 2); u <= Math.min(c, 2); u++) {
          const t = L.mul(x[u]!, y[c - u]!);
          expr = expr === '' ? t : L.add(expr, t);
        }
        const local = `${tag}p${p}_${c}`;
        cols[c] = body.let(local, m === 0 ? expr : L.add(get(local), expr));
      }
    }
  });
  // β^b coefficients: A·B = P00 + (P01-P00-P11)β + (P02-P00-P22+P11)β² + (P12-P11-P22)β³ + P22β⁴.
  const combination: ReadonlyArray<ReadonlyArray<readonly [string, 1 | -1]>> = [
    [['00', 1]],
    [
      ['01', 1],
      ['00', -1],
      ['11', -1],
    ],
    [
      ['02', 1],
      ['11', 1],
      ['00', -1],
      ['22', -1],
    ],
    [
      ['12', 1],
      ['11', -1],
      ['22', -1],
    ],
    [['22', 1]],
  ];
  const out: string[] = [];
  for (let column = 0; column < COLUMNS; column++) {
    let expr = '';
    for (let block = 0; block < combination.length; block++) {
      const c = column - 3 * block;
      if (c < 0 || c > 4) continue;
      for (const [p, sign] of combination[block]!) {
        const term = columns.get(p)![c]!;
        if (expr === '')
          expr = term; // the first term of every column is positive
        else expr = sign > 0 ? L.add(expr, term) : L.sub(expr, term);
      }
    }
    out.push(body.let(`${tag}col${column}`, expr));
  }
  return (column) => {
    const count = BigInt(pairs.length * Math.min(column + 1, COLUMNS - column));
    return [{ expr: out[column]!, bound: count * MASK * MASK }];
  };
}

/** Operand products of column `column` of a², the cross products counted once and doubled. */
export const squareColumns =
  (L: Lanes, a: readonly string[]) =>
  (column: number): Term[] => {
    let cross = '';
    let count = 0n;
    for (let j = Math.max(0, column - LIMBS + 1); 2 * j < column; j++) {
      const t = L.mul(a[j]!, a[column - j]!);
      cross = cross === '' ? t : L.add(cross, t);
      count++;
    }
    const terms: Term[] = [];
    if (cross !== '') terms.push({ expr: L.shl1(cross), bound: 2n * count * MASK * MASK });
    if (column % 2 === 0) terms.push({ expr: L.mul(a[column / 2]!, a[column / 2]!), bound: MASK * MASK });
    return terms;
  };
