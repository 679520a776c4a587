/**
 * WAT for BN254 scalar-field arithmetic in Montgomery form, the building blocks of the generated
 * Poseidon permutation (permutation-wat.ts).
 *
 * Representation: 9 limbs of 29 bits (R = 2^261), each stored as a u32 (an element is 36 bytes)
 * and computed on as i64. A product of two limbs is below 2^58, so 64 of them add up in an i64
 * without a carry: each column of a product is summed first and carried once, instead of a carry
 * per partial product as 32-bit limbs need. This is what makes 29-bit limbs the faster choice in
 * WebAssembly, which has no 64×64→128 multiply.
 *
 * Montgomery multiplication is "finely integrated product scanning": column by column, the
 * operand products and the reduction products q_j · p_(i-j) go into one accumulator; the low
 * columns yield the q digits, the high columns the result. A dot product Σ c_m · x_m shares a
 * single reduction among all its terms, and adding z (z·R before the division) is free, so
 * `dot` computes Σ c_m x_m / R + z in one pass: a matrix row plus the next round's constant.
 *
 * Operand products use one level of Karatsuba (karatsubaColumns); squares are schoolbook with
 * doubled cross products.
 *
 * Values are not reduced below p between operations: a result is below Σ bounds / R + p + z, and
 * with R ≈ 169 p that stays far below 2^261 (permutation-wat.ts checks every bound when it
 * generates). The generator also tracks a bound on the accumulator and splits a column in two
 * before it could pass 2^64 (only wide dot products need it).
 */
import { FIELD_MODULUS as P } from '@nightjar/protocol';

export const LIMB_BITS = 29;
export const LIMBS = 9;
export const ELEMENT_BYTES = 4 * LIMBS;
export const MONTGOMERY_R = 1n << BigInt(LIMB_BITS * LIMBS);

const W = BigInt(LIMB_BITS);
const MASK = (1n << W) - 1n;
const U64_MAX = (1n << 64n) - 1n;
const P_LIMBS = toLimbs(P);
/** -p^-1 mod 2^29: q = acc · PINV makes acc + q·p divisible by 2^29. */
const PINV = (1n << W) - modInverse(P, 1n << W);

function modInverse(a: bigint, m: bigint): bigint {
  // Extended Euclid; a and m are coprime here (p is odd, m a power of two).
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

/** Little-endian 29-bit limbs of 0 <= x < 2^261. */
export function toLimbs(x: bigint): bigint[] {
  if (x < 0n || x >= MONTGOMERY_R) throw new RangeError('field-wat: value out of limb range');
  return Array.from({ length: LIMBS }, (_, i) => (x >> (W * BigInt(i))) & MASK);
}

/** The 36 bytes of an element as stored in memory (limbs as little-endian u32). */
export function elementBytes(x: bigint): Uint8Array {
  const out = new Uint8Array(ELEMENT_BYTES);
  const view = new DataView(out.buffer);
  toLimbs(x).forEach((limb, i) => view.setUint32(4 * i, Number(limb), true));
  return out;
}

/** An i64 expression and an upper bound on its value. */
interface Term {
  expr: string;
  bound: bigint;
}

const get = (name: string): string => `(local.get $${name})`;
const i64 = (value: bigint): string => `(i64.const ${value})`;
const mul = (a: string, b: string): string => `(i64.mul ${a} ${b})`;
const product = (a: string, b: string): Term => ({ expr: mul(a, b), bound: MASK * MASK });

/** Balanced sum, so the adds do not form one long dependency chain. */
function treeSum(terms: readonly Term[]): Term {
  if (terms.length === 1) return terms[0]!;
  const half = terms.length >> 1;
  const left = treeSum(terms.slice(0, half));
  const right = treeSum(terms.slice(half));
  return { expr: `(i64.add ${left.expr} ${right.expr})`, bound: left.bound + right.bound };
}

/** Collects the locals and instructions of one function body. */
export class Body {
  private readonly locals = new Set<string>();
  readonly lines: string[] = [];

  local(name: string): string {
    this.locals.add(name);
    return name;
  }

  set(name: string, expr: string): void {
    this.lines.push(`(local.set $${this.local(name)} ${expr})`);
  }

  declarations(): string {
    return [...this.locals].map((name) => `(local $${name} i64)`).join(' ');
  }
}

/** Loads the 9 limbs of the element at `ptr` + `offset` into locals `${prefix}0..8`; returns their reads. */
export function loadElement(body: Body, prefix: string, ptr: string, offset = 0, direct = false): string[] {
  return Array.from({ length: LIMBS }, (_, i) => {
    const load = `(i64.load32_u offset=${offset + 4 * i} (local.get $${ptr}))`;
    if (direct) return load;
    const name = `${prefix}${i}`;
    body.set(name, load);
    return get(name);
  });
}

export function storeElement(body: Body, ptr: string, limbs: readonly string[]): void {
  limbs.forEach((limb, i) => {
    body.lines.push(`(i64.store32 offset=${4 * i} (local.get $${ptr}) ${limb})`);
  });
}

/**
 * The Montgomery reduction around `columnTerms` (the operand products of each column 0..16):
 * returns reads of the locals `${out}0..8` holding (Σ products + z·R) / R, where the division is
 * exact after adding q·p. `z` are the limbs to add (or none).
 *
 * Each column is summed in a fresh chain and only then added to the running carry, so a column's
 * products do not wait for the previous column: the one serial path left is q_(i-1) → q_i, and
 * the term that depends on q_(i-1) is added last.
 */
function montgomery(
  body: Body,
  columnTerms: (column: number) => Term[],
  z: readonly string[] | undefined,
  out: string,
): string[] {
  const q = Array.from({ length: LIMBS }, (_, i) => `q${i}`);
  const result: string[] = [];
  let acc = 0n; // bound on $acc (the carry into the current column, then the column's sum)
  let hi = 0n; // bound on $hi, the carry into the next column set aside by a split
  let started = false; // whether $acc holds anything yet

  const split = (): void => {
    // The part of $acc above the column's 29 bits moves to $hi (it belongs to the next column).
    const carry = `(i64.shr_u ${get('acc')} ${i64(W)})`;
    body.set('hi', hi === 0n ? carry : `(i64.add ${get('hi')} ${carry})`);
    hi += acc >> W;
    body.set('acc', `(i64.and ${get('acc')} ${i64(MASK)})`);
    acc = MASK;
  };

  /** $acc += Σ terms, summed in a chain of their own first; splits before anything can pass 2^64. */
  const add = (terms: readonly Term[]): void => {
    let i = 0;
    while (i < terms.length) {
      if (started && acc + terms[i]!.bound > U64_MAX) split();
      const room = U64_MAX - (started ? acc : 0n);
      let bound = 0n;
      let chain = '';
      for (; i < terms.length && bound + terms[i]!.bound <= room; i++) {
        const term = terms[i]!;
        if (chain === '') body.set('col', term.expr);
        else body.set('col', `(i64.add ${get('col')} ${term.expr})`);
        chain = 'col';
        bound += term.bound;
      }
      body.set('acc', started ? `(i64.add ${get('acc')} ${get('col')})` : get('col'));
      acc = (started ? acc : 0n) + bound;
      started = true;
    }
  };

  const carry = (): void => {
    const shifted = `(i64.shr_u ${get('acc')} ${i64(W)})`;
    body.set('acc', hi === 0n ? shifted : `(i64.add ${shifted} ${get('hi')})`);
    acc = (acc >> W) + hi;
    hi = 0n;
  };

  for (let column = 0; column < 2 * LIMBS - 1; column++) {
    const early: Term[] = [...columnTerms(column)];
    const late: Term[] = [];
    for (let j = Math.max(0, column - LIMBS + 1); j <= Math.min(column - 1, LIMBS - 1); j++) {
      const pLimb = P_LIMBS[column - j]!;
      const term = { expr: mul(get(q[j]!), i64(pLimb)), bound: MASK * pLimb };
      (j === column - 1 ? late : early).push(term);
    }
    if (z !== undefined && column >= LIMBS) early.push({ expr: z[column - LIMBS]!, bound: MASK });
    add(early);
    add(late);
    if (column < LIMBS) {
      body.set(q[column]!, `(i64.and (i64.mul ${get('acc')} ${i64(PINV)}) ${i64(MASK)})`);
      add([{ expr: mul(get(q[column]!), i64(P_LIMBS[0]!)), bound: MASK * P_LIMBS[0]! }]);
    } else {
      const name = `${out}${column - LIMBS}`;
      body.set(name, `(i64.and ${get('acc')} ${i64(MASK)})`);
      result.push(get(name));
    }
    carry();
  }
  // Column 17: the top limb. It is below 2^29 because every value stays below 2^261.
  const top = `${out}${LIMBS - 1}`;
  body.set(top, z === undefined ? get('acc') : `(i64.add ${get('acc')} ${z[LIMBS - 1]!})`);
  result.push(get(top));
  return result;
}

type Pairs = ReadonlyArray<readonly [readonly string[], readonly string[]]>;

/**
 * The 17 column sums of Σ_m a_m · b_m by one level of 3-way Karatsuba over blocks of 3 limbs: six
 * 3×3 block products (54 multiplies) per term instead of 81. Multiplies are what bounds the speed
 * (one i64.mul per cycle), the extra adds run beside them. The identity holds column by column
 * (block sums are not carried), and although the subtractions may wrap mod 2^64 on the way, each
 * final column is the schoolbook column sum, which the bounds keep below 2^64.
 */
function karatsubaColumns(body: Body, pairs: Pairs, tag: string): (column: number) => Term[] {
  const products = ['00', '11', '22', '01', '02', '12'] as const;
  const columns = new Map<string, string[]>(products.map((p) => [p, []]));
  pairs.forEach(([a, b], m) => {
    const blocks = (x: readonly string[], name: string): Map<string, string[]> => {
      const out = new Map<string, string[]>();
      for (const block of [0, 1, 2]) out.set(`${block}${block}`, x.slice(3 * block, 3 * block + 3));
      for (const [i, j] of [
        [0, 1],
        [0, 2],
        [1, 2],
      ] as const) {
        out.set(
          `${i}${j}`,
          [0, 1, 2].map((u) => {
            const local = `${tag}${name}${m}s${i}${j}_${u}`;
            body.set(local, `(i64.add ${x[3 * i + u]!} ${x[3 * j + u]!})`);
            return get(local);
          }),
        );
      }
      return out;
    };
    const ab = blocks(a, 'a');
    const bb = blocks(b, 'b');
    for (const p of products) {
      const [x, y] = [ab.get(p)!, bb.get(p)!];
      const cols = columns.get(p)!;
      for (let c = 0; c < 5; c++) {
        const local = `${tag}p${p}_${c}`;
        let expr = '';
        for (let u = Math.max(0, c - 2); u <= Math.min(c, 2); u++) {
          const t = mul(x[u]!, y[c - u]!);
          expr = expr === '' ? t : `(i64.add ${expr} ${t})`;
        }
        body.set(local, m === 0 ? expr : `(i64.add ${get(local)} ${expr})`);
        cols[c] = get(local);
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
  for (let column = 0; column < 2 * LIMBS - 1; column++) {
    let expr = '';
    for (let block = 0; block < combination.length; block++) {
      const c = column - 3 * block;
      if (c < 0 || c > 4) continue;
      for (const [p, sign] of combination[block]!) {
        const term = columns.get(p)![c]!;
        if (expr === '')
          expr = term; // the first term of every column is positive
        else expr = `(${sign > 0 ? 'i64.add' : 'i64.sub'} ${expr} ${term})`;
      }
    }
    const local = `${tag}col${column}`;
    body.set(local, expr);
    out.push(get(local));
  }
  return (column) => {
    const count = BigInt(pairs.length * Math.min(column + 1, 2 * LIMBS - 1 - column));
    return [{ expr: out[column]!, bound: count * MASK * MASK }];
  };
}

/** Operand products of column `column` of a², the cross products counted once and doubled. */
const squareColumn =
  (a: readonly string[]) =>
  (column: number): Term[] => {
    const cross: Term[] = [];
    for (let j = Math.max(0, column - LIMBS + 1); 2 * j < column; j++)
      cross.push(product(a[j]!, a[column - j]!));
    const terms: Term[] = [];
    if (cross.length > 0) {
      const sum = treeSum(cross);
      terms.push({ expr: `(i64.shl ${sum.expr} ${i64(1n)})`, bound: 2n * sum.bound });
    }
    if (column % 2 === 0) terms.push(product(a[column / 2]!, a[column / 2]!));
    return terms;
  };

export const montgomeryMul = (
  body: Body,
  a: readonly string[],
  b: readonly string[],
  out: string,
): string[] => montgomery(body, karatsubaColumns(body, [[a, b]], `${out}k`), undefined, out);

export const montgomerySquare = (body: Body, a: readonly string[], out: string): string[] =>
  montgomery(body, squareColumn(a), undefined, out);

export const montgomeryDot = (
  body: Body,
  pairs: Pairs,
  z: readonly string[] | undefined,
  out: string,
): string[] => montgomery(body, karatsubaColumns(body, pairs, `${out}k`), z, out);

/** Upper bound of a Montgomery result: (Σ products + (R - 1) p) / R + z. */
export const montgomeryBound = (products: bigint, z = 0n): bigint =>
  (products + (MONTGOMERY_R - 1n) * P) / MONTGOMERY_R + z;

function func(name: string, params: readonly string[], body: Body): string {
  const signature = params.map((p) => `(param $${p} i32)`).join(' ');
  return `(func $${name} ${signature} ${body.declarations()}\n  ${body.lines.join('\n  ')})`;
}

/** Fused kernels up to this many terms; wider dot products go through the column buffer. */
const FUSED_DOT = 2;

/**
 * $dot<k>(out, c, x, z): out = Σ_m c[m] · x[m] / R + z, for k elements at c and at x (36 bytes
 * apart). Up to FUSED_DOT terms it is one function; wider, V8 runs out of registers for all the
 * limbs (measured: about 1.6x slower per product), so the products go through the column buffer
 * two terms at a time ($prod / $prodacc) and $reduce finishes.
 */
export function dotFunction(k: number): string {
  if (k <= FUSED_DOT) {
    const body = new Body();
    const pairs = Array.from(
      { length: k },
      (_, m) =>
        [
          loadElement(body, `c${m}_`, 'c', m * ELEMENT_BYTES),
          loadElement(body, `x${m}_`, 'x', m * ELEMENT_BYTES),
        ] as const,
    );
    const z = loadElement(body, 'z', 'z');
    storeElement(body, 'out', montgomeryDot(body, pairs, z, 'r'));
    return func(`dot${k}`, ['out', 'c', 'x', 'z'], body);
  }
  if (k > MAX_BUFFERED_TERMS) throw new Error('field-wat: dot product too wide for the column buffer');
  const calls: string[] = [];
  for (let m = 0; m < k; m += FUSED_DOT) {
    const terms = Math.min(FUSED_DOT, k - m);
    const at = (ptr: string): string => `(i32.add (local.get $${ptr}) (i32.const ${m * ELEMENT_BYTES}))`;
    calls.push(`(call $${m === 0 ? 'prod' : 'prodacc'}${terms} ${at('c')} ${at('x')})`);
  }
  calls.push('(call $reduce (local.get $out) (local.get $z))');
  return `(func $dot${k} (param $out i32) (param $c i32) (param $x i32) (param $z i32)\n  ${calls.join('\n  ')})`;
}

/** The column buffer holds sums of at most this many terms' products (each column below 2^64). */
const MAX_BUFFERED_TERMS = 7;
const COLUMNS = 2 * LIMBS - 1;
const columnAt = (buffer: number, column: number): string => `offset=${buffer + 8 * column} (i32.const 0)`;

/** $prod<k>(c, x) and $prodacc<k>(c, x): the column sums of Σ c_m x_m stored in / added to the buffer. */
export function productFunctions(buffer: number): string[] {
  const out: string[] = [];
  for (let k = 1; k <= FUSED_DOT; k++) {
    for (const accumulate of [false, true]) {
      const body = new Body();
      const pairs = Array.from(
        { length: k },
        (_, m) =>
          [
            loadElement(body, `c${m}_`, 'c', m * ELEMENT_BYTES),
            loadElement(body, `x${m}_`, 'x', m * ELEMENT_BYTES),
          ] as const,
      );
      const terms = karatsubaColumns(body, pairs, 'k');
      for (let column = 0; column < COLUMNS; column++) {
        const chain = terms(column).reduce(
          (sum, t) => (sum === '' ? t.expr : `(i64.add ${sum} ${t.expr})`),
          '',
        );
        const value = accumulate ? `(i64.add (i64.load ${columnAt(buffer, column)}) ${chain})` : chain;
        body.lines.push(`(i64.store ${columnAt(buffer, column)} ${value})`);
      }
      out.push(func(`${accumulate ? 'prodacc' : 'prod'}${k}`, ['c', 'x'], body));
    }
  }
  return out;
}

/** $reduce(out, z): out = (column buffer) / R + z. */
export function reduceFunction(buffer: number): string {
  const body = new Body();
  const z = loadElement(body, 'z', 'z');
  const columns = (column: number): Term[] => {
    const products = BigInt(MAX_BUFFERED_TERMS * Math.min(column + 1, COLUMNS - column));
    return [{ expr: `(i64.load ${columnAt(buffer, column)})`, bound: products * MASK * MASK }];
  };
  storeElement(body, 'out', montgomery(body, columns, z, 'r'));
  return func('reduce', ['out', 'z'], body);
}

/** $sbox(out, in): out = in^5 (Montgomery form in, Montgomery form out); out may equal in. */
export function sboxFunction(): string {
  const body = new Body();
  const x = loadElement(body, 'x', 'in');
  const x2 = montgomerySquare(body, x, 'sq');
  const x4 = montgomerySquare(body, x2, 'qu');
  storeElement(body, 'out', montgomeryMul(body, x4, x, 'r'));
  return func('sbox', ['out', 'in'], body);
}

/** $add(out, a, b): out = a + b, limbs carried (the caller keeps the sum below 2^261). */
export function addFunction(): string {
  const body = new Body();
  const a = loadElement(body, 'a', 'a');
  const b = loadElement(body, 'b', 'b');
  const out: string[] = [];
  for (let i = 0; i < LIMBS; i++) {
    const sum = `(i64.add ${a[i]!} ${b[i]!})`;
    body.set('acc', i === 0 ? sum : `(i64.add ${get('acc')} ${sum})`);
    const name = `r${i}`;
    body.set(name, i === LIMBS - 1 ? get('acc') : `(i64.and ${get('acc')} ${i64(MASK)})`);
    if (i < LIMBS - 1) body.set('acc', `(i64.shr_u ${get('acc')} ${i64(W)})`);
    out.push(get(name));
  }
  storeElement(body, 'out', out);
  return func('add', ['out', 'a', 'b'], body);
}

/** $unpack(out, src): the four little-endian u64 words at src (a value below 2^256) as limbs. */
export function unpackFunction(): string {
  const body = new Body();
  const words = Array.from({ length: 4 }, (_, w) => {
    body.set(`w${w}`, `(i64.load offset=${8 * w} (local.get $src))`);
    return `w${w}`;
  });
  const out: string[] = [];
  for (let i = 0; i < LIMBS; i++) {
    const start = LIMB_BITS * i;
    const word = start >> 6;
    const shift = start & 63;
    let expr = `(i64.shr_u ${get(words[word]!)} ${i64(BigInt(shift))})`;
    if (shift + LIMB_BITS > 64 && word + 1 < words.length) {
      expr = `(i64.or ${expr} (i64.shl ${get(words[word + 1]!)} ${i64(BigInt(64 - shift))}))`;
    }
    const name = `r${i}`;
    body.set(name, `(i64.and ${expr} ${i64(MASK)})`);
    out.push(get(name));
  }
  storeElement(body, 'out', out);
  return func('unpack', ['out', 'src'], body);
}

/**
 * $pack(out, src): the element at src, known to be below 2p, reduced below p and written as four
 * little-endian u64 words at out.
 */
export function packFunction(): string {
  const body = new Body();
  const v = loadElement(body, 'v', 'src');
  // d = v - p with borrows; keep d when there is no final borrow (v >= p).
  const d: string[] = [];
  for (let i = 0; i < LIMBS; i++) {
    const diff = `(i64.sub ${v[i]!} ${i64(P_LIMBS[i]!)})`;
    body.set('t', i === 0 ? diff : `(i64.sub ${diff} ${get('borrow')})`);
    body.set('borrow', `(i64.shr_u ${get('t')} ${i64(63n)})`);
    body.set(`d${i}`, `(i64.and ${get('t')} ${i64(MASK)})`);
    d.push(`d${i}`);
  }
  const limbs = v.map((name, i) => {
    body.set(`r${i}`, `(select ${name} ${get(d[i]!)} (i32.wrap_i64 ${get('borrow')}))`);
    return get(`r${i}`);
  });
  for (let w = 0; w < 4; w++) {
    const parts: string[] = [];
    for (let i = 0; i < LIMBS; i++) {
      const start = LIMB_BITS * i - 64 * w; // bit position of limb i within word w
      if (start >= 64 || start + LIMB_BITS <= 0) continue;
      parts.push(
        start >= 0
          ? `(i64.shl ${limbs[i]!} ${i64(BigInt(start))})`
          : `(i64.shr_u ${limbs[i]!} ${i64(BigInt(-start))})`,
      );
    }
    const word = parts.reduce((acc, part) => `(i64.or ${acc} ${part})`);
    body.lines.push(`(i64.store offset=${8 * w} (local.get $out) ${word})`);
  }
  return func('pack', ['out', 'src'], body);
}
