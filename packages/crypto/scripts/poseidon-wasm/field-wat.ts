/**
 * WAT functions for BN254 scalar-field arithmetic in Montgomery form (limbs.ts), the building
 * blocks of the generated Poseidon permutation (permutation-wat.ts). Each comes as a scalar
 * function and, where two independent operations are at hand, a two-lane SIMD one (lanes.ts):
 *
 *  - $dot<k>(out, c, x, z): out = Σ_m c[m] x[m] / R + z over k elements 36 bytes apart;
 *    $dotx2_<k>(out1, out2, c1, c2, x, z1, z2): two of them over the same x;
 *  - $sbox(out, in): out = in^5; $sbox2(out1, out2, in1, in2);
 *  - $add, $unpack (four u64 words to limbs) and $pack (limbs below 2p to four canonical words).
 *
 * Values are not reduced below p between operations: a result is below Σ bounds / R + p + z, and
 * with R ≈ 169 p that stays far below 2^261 (permutation-wat.ts checks every bound when it
 * generates).
 */
import { COLUMNS, ELEMENT_BYTES, LIMBS, LIMB_BITS, MASK, P_LIMBS, W } from './limbs.js';
import { PAIR, SCALAR, type Lanes } from './lanes.js';
import {
  Body,
  get,
  karatsubaColumns,
  montgomery,
  squareColumns,
  type Pairs,
  type Term,
} from './montgomery-wat.js';

/** Fused kernels up to this many terms; wider dot products go through a column buffer. */
const FUSED_DOT = 2;
/** The column buffers hold sums of at most this many terms' products (each column below 2^64). */
export const MAX_DOT_TERMS = 7;
/** Bytes of the (two-lane) column buffer. */
export const COLUMN_BUFFER_BYTES = 16 * COLUMNS;

const i64 = (value: bigint): string => `(i64.const ${value})`;
const at = (ptr: string, offset: number): string =>
  offset === 0 ? `(local.get $${ptr})` : `(i32.add (local.get $${ptr}) (i32.const ${offset}))`;

/** Limb reads of the element at `ptr` + `offset` (scalar). */
function load(body: Body, prefix: string, ptr: string, offset = 0): string[] {
  return Array.from({ length: LIMBS }, (_, i) =>
    body.let(`${prefix}${i}`, `(i64.load32_u offset=${offset + 4 * i} (local.get $${ptr}))`, 'i64'),
  );
}

/** Two-lane limb reads: lane 0 from `ptr1`, lane 1 from `ptr2` (or both from `ptr1`). */
function loadPair(body: Body, prefix: string, ptr1: string, ptr2: string | undefined, offset = 0): string[] {
  return Array.from({ length: LIMBS }, (_, i) => {
    const o = `offset=${offset + 4 * i}`;
    const expr =
      ptr2 === undefined
        ? `(v128.load32_splat ${o} (local.get $${ptr1}))`
        : `(i32x4.replace_lane 1 (v128.load32_zero ${o} (local.get $${ptr1})) (i32.load ${o} (local.get $${ptr2})))`;
    return body.let(`${prefix}${i}`, expr, 'v128');
  });
}

/** Stores accumulator-typed limbs: to `ptrs[0]` (scalar), or lane k to `ptrs[k]`. */
function store(body: Body, ptrs: readonly string[], limbs: readonly string[]): void {
  limbs.forEach((limb, i) => {
    ptrs.forEach((ptr, lane) => {
      const value = body.lanes.width === 1 ? limb : `(i64x2.extract_lane ${lane} ${limb})`;
      body.lines.push(`(i64.store32 offset=${4 * i} (local.get $${ptr}) ${value})`);
    });
  });
}

function func(name: string, params: readonly string[], body: Body): string {
  const signature = params.map((p) => `(param $${p} i32)`).join(' ');
  return `(func $${name} ${signature} ${body.declarations()}\n  ${body.lines.join('\n  ')})`;
}

const dotName = (L: Lanes, k: number): string => (L.width === 1 ? `dot${k}` : `dotx2_${k}`);
const params = (L: Lanes, ...names: string[]): string[] =>
  L.width === 1 ? names : names.flatMap((n) => (n === 'x' ? [n] : [`${n}1`, `${n}2`]));

/** The operands c_m (per lane) and x_m (shared) of a dot product. */
function dotOperands(body: Body, k: number, split = false): Pairs {
  const L = body.lanes;
  return Array.from({ length: k }, (_, m) => {
    const offset = m * ELEMENT_BYTES;
    if (L.width === 1) return [load(body, `c${m}_`, 'c', offset), load(body, `x${m}_`, 'x', offset)] as const;
    return [
      loadPair(body, `c${m}_`, 'c1', 'c2', offset),
      split ? loadPair(body, `x${m}_`, 'x1', 'x2', offset) : loadPair(body, `x${m}_`, 'x', undefined, offset),
    ] as const;
  });
}

const loadZ = (body: Body): string[] =>
  body.lanes.width === 1 ? load(body, 'zl', 'z') : loadPair(body, 'zl', 'z1', 'z2');
const outs = (L: Lanes): string[] => (L.width === 1 ? ['out'] : ['out1', 'out2']);

/**
 * The dot product function for `k` terms. Up to FUSED_DOT terms it is one function; wider, V8
 * runs out of registers for all the limbs (measured: about 1.6x slower per product), so the
 * products go through the two-lane column buffer two terms at a time ($reducex2, or for one dot
 * product split across the lanes $reduceh, finishes).
 */
export function dotFunction(L: Lanes, k: number, zero: number): string {
  const name = dotName(L, k);
  if (k <= FUSED_DOT) {
    const body = new Body(L);
    const pairs = dotOperands(body, k);
    const z = loadZ(body);
    store(body, outs(L), montgomery(body, karatsubaColumns(body, pairs, 'k'), z, 'r'));
    return func(name, params(L, 'out', 'c', 'x', 'z'), body);
  }
  if (k > MAX_DOT_TERMS) throw new Error('field-wat: dot product too wide for the column buffer');
  const calls = L.width === 1 ? splitCalls(k, zero) : pairCalls(k);
  const finish = [...params(L, 'out'), ...params(L, 'z')].map((p) => `(local.get $${p})`).join(' ');
  calls.push(`(call $${L.width === 1 ? 'reduceh' : 'reducex2'} ${finish})`);
  const signature = params(L, 'out', 'c', 'x', 'z')
    .map((p) => `(param $${p} i32)`)
    .join(' ');
  return `(func $${name} ${signature}\n  ${calls.join('\n  ')})`;
}

/** Two dot products over the same x: two terms at a time into the two-lane column buffer. */
function pairCalls(k: number): string[] {
  const calls: string[] = [];
  for (let m = 0; m < k; m += FUSED_DOT) {
    const terms = Math.min(FUSED_DOT, k - m);
    const o = m * ELEMENT_BYTES;
    calls.push(
      `(call $${m === 0 ? 'prod' : 'prodacc'}x2_${terms} ${at('c1', o)} ${at('c2', o)} ${at('x', o)})`,
    );
  }
  return calls;
}

/**
 * One wide dot product split across the two SIMD lanes: the first half of the terms in lane 0,
 * the rest in lane 1 (a missing term is zero · zero), summed across lanes by $reduceh.
 */
function splitCalls(k: number, zero: number): string[] {
  const half = Math.ceil(k / 2);
  const calls: string[] = [];
  const term = (m: number | undefined): string =>
    m === undefined
      ? `(i32.const ${zero}) (i32.const ${zero})`
      : `${at('c', m * ELEMENT_BYTES)} ${at('x', m * ELEMENT_BYTES)}`;
  const emit = (terms: number, a: number, b: number | undefined): void => {
    calls.push(`(call $${calls.length === 0 ? 'prod' : 'prodacc'}split_${terms} ${term(a)} ${term(b)})`);
  };
  for (let i = 0; i < half; i += FUSED_DOT) {
    if (i + 1 < half && half + i + 1 < k) emit(2, i, half + i);
    else {
      for (let j = i; j < Math.min(i + FUSED_DOT, half); j++) emit(1, j, half + j < k ? half + j : undefined);
    }
  }
  return calls;
}

/**
 * The two-lane column buffer's functions: $prodx2_k / $prodaccx2_k (c1, c2, x) store / add the
 * columns of two dot products over the same x; $prodsplit_k / $prodaccsplit_k (c1, x1, c2, x2)
 * those of two unrelated ones; $reducex2 finishes the former, $reduceh sums the lanes and
 * finishes one scalar dot product.
 */
export function productFunctions(buffer: number): string[] {
  const L = PAIR;
  const column = (i: number, half = 0): string => `offset=${buffer + 16 * i + 8 * half} (i32.const 0)`;
  const out: string[] = [];
  for (const split of [false, true]) {
    for (let k = 1; k <= FUSED_DOT; k++) {
      for (const accumulate of [false, true]) {
        const body = new Body(L);
        const terms = karatsubaColumns(body, dotOperands(body, k, split), 'k');
        for (let i = 0; i < COLUMNS; i++) {
          const sum = terms(i).reduce((s, t) => (s === '' ? t.expr : L.add(s, t.expr)), '');
          const value = accumulate ? L.add(`(v128.load ${column(i)})`, sum) : sum;
          body.lines.push(`(v128.store ${column(i)} ${value})`);
        }
        const name = `${accumulate ? 'prodacc' : 'prod'}${split ? 'split_' : 'x2_'}${k}`;
        out.push(func(name, split ? ['c1', 'x1', 'c2', 'x2'] : ['c1', 'c2', 'x'], body));
      }
    }
  }
  const bound = (i: number): bigint => BigInt(MAX_DOT_TERMS * Math.min(i + 1, COLUMNS - i)) * MASK * MASK;
  const pair = new Body(L);
  const z = loadZ(pair);
  const pairColumns = (i: number): Term[] => [{ expr: `(v128.load ${column(i)})`, bound: bound(i) }];
  store(pair, outs(L), montgomery(pair, pairColumns, z, 'r'));
  out.push(func('reducex2', params(L, 'out', 'z'), pair));

  const one = new Body(SCALAR);
  const zOne = loadZ(one);
  const sums = (i: number): Term[] => [
    { expr: `(i64.add (i64.load ${column(i)}) (i64.load ${column(i, 1)}))`, bound: bound(i) },
  ];
  store(one, outs(SCALAR), montgomery(one, sums, zOne, 'r'));
  out.push(func('reduceh', params(SCALAR, 'out', 'z'), one));
  return out;
}

/** $sbox(out, in) / $sbox2(out1, out2, in1, in2): x^5 in Montgomery form; out may equal in. */
export function sboxFunction(L: Lanes): string {
  const body = new Body(L);
  const x = L.width === 1 ? load(body, 'x', 'in') : loadPair(body, 'x', 'in1', 'in2');
  const limbs = (acc: readonly string[], name: string): string[] =>
    L.width === 1 ? [...acc] : acc.map((a, i) => body.let(`${name}${i}`, L.toLimb(a)));
  const x2 = limbs(montgomery(body, squareColumns(L, x), undefined, 'sq'), 'sql');
  const x4 = limbs(montgomery(body, squareColumns(L, x2), undefined, 'qu'), 'qul');
  store(body, outs(L), montgomery(body, karatsubaColumns(body, [[x4, x]], 'k'), undefined, 'r'));
  return func(L.width === 1 ? 'sbox' : 'sbox2', params(L, 'out', 'in'), body);
}

/** Every field function the permutation calls, scalar and two-lane. */
export function fieldFunctions(at: { buffer: number; zero: number }): string[] {
  const out: string[] = [];
  for (const L of [SCALAR, PAIR]) {
    for (let k = 1; k <= MAX_DOT_TERMS; k++) out.push(dotFunction(L, k, at.zero));
    out.push(sboxFunction(L));
  }
  return [...out, ...productFunctions(at.buffer), addFunction(), unpackFunction(), packFunction()];
}

/** $add(out, a, b): out = a + b, limbs carried (the caller keeps the sum below 2^261). */
function addFunction(): string {
  const body = new Body(SCALAR);
  const a = load(body, 'a', 'a');
  const b = load(body, 'b', 'b');
  const out: string[] = [];
  for (let i = 0; i < LIMBS; i++) {
    const sum = `(i64.add ${a[i]!} ${b[i]!})`;
    body.set('acc', i === 0 ? sum : `(i64.add ${get('acc')} ${sum})`);
    const name = `r${i}`;
    body.set(name, i === LIMBS - 1 ? get('acc') : `(i64.and ${get('acc')} ${i64(MASK)})`);
    if (i < LIMBS - 1) body.set('acc', `(i64.shr_u ${get('acc')} ${i64(W)})`);
    out.push(get(name));
  }
  store(body, ['out'], out);
  return func('add', ['out', 'a', 'b'], body);
}

/** $unpack(out, src): the four little-endian u64 words at src (a value below 2^256) as limbs. */
function unpackFunction(): string {
  const body = new Body(SCALAR);
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
  store(body, ['out'], out);
  return func('unpack', ['out', 'src'], body);
}

/**
 * $pack(out, src): the element at src, known to be below 2p, reduced below p and written as four
 * little-endian u64 words at out.
 */
function packFunction(): string {
  const body = new Body(SCALAR);
  const v = load(body, 'v', 'src');
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
