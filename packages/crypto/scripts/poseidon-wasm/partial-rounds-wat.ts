/**
 * WAT for Poseidon's partial rounds in the sparse form (poseidon-constants.ts), two rounds at a
 * time where the dot products stay narrow enough.
 *
 * One round i: y = u0^5; u0 = S00 y + w_i · s + k_(i+1); s_j += v_i,j y. Each lane update is a
 * full Montgomery multiplication, half of a round's cost. Taking rounds i and i + 1 together,
 * round i + 1's row sees s + v_i y_i, so its row is w_(i+1) · s + (w_(i+1) · v_i) y_i + S00 y_(i+1)
 * (one more term with a precomputed constant), and each lane gets one two-term dot product
 * s_j += v_i,j y_i + v_(i+1),j y_(i+1): one reduction for two rounds instead of two.
 *
 * Memory: s_1..s_n in A_1..A_n, y_i in A_t and y_(i+1) in A_(t+1), so every operand list is
 * contiguous; u0 in T. Constants per pair, in order: [w_i, S00], [w_(i+1), w_(i+1)·v_i, S00],
 * then [v_i,j, v_(i+1),j] for each lane j; an unpaired round: [w_i, S00], then v_i.
 */
import { FIELD_MODULUS as P } from '@nightjar/protocol';
import type { OptimizedConstants } from '../../src/poseidon-constants.js';
import { MAX_DOT_TERMS } from './field-wat.js';
import { ELEMENT_BYTES } from './limbs.js';

export interface PartialRoundsContext {
  constants: OptimizedConstants;
  /** Appends elements (Montgomery form) to the constant area; returns the first's address. */
  push(values: readonly bigint[]): number;
  emit(line: string): void;
  /** Address of element i of the A array and of T. */
  a(i: number): number;
  t: number;
  /** Address of k_1 (k_0 is added by the full round before); the next full round's constants follow k_(R-1). */
  firstK: number;
  /** Value bounds, as permutation-wat.ts tracks them. */
  sbox(x: bigint): bigint;
  dot(x: readonly bigint[], z: bigint): bigint;
}

const call = (name: string, ...args: (number | string)[]): string =>
  `(call $${name} ${args.map((a) => (typeof a === 'number' ? `(i32.const ${a})` : a)).join(' ')})`;
const ptr = (local: string, offset: number): string =>
  offset === 0 ? `(local.get $${local})` : `(i32.add (local.get $${local}) (i32.const ${offset}))`;

/**
 * The lane updates s_j += Σ c_j,m y_m (k terms, constants at `constants(j)`, y's from A_t on),
 * two lanes at a time in the two-lane function.
 */
function laneUpdates(
  ctx: PartialRoundsContext,
  n: number,
  k: number,
  constants: (j: number) => string,
  t: number,
): void {
  for (let j = 1; j <= n; j += 2) {
    if (j + 1 <= n) {
      ctx.emit(
        call(
          `dotx2_${k}`,
          ctx.a(j),
          ctx.a(j + 1),
          constants(j),
          constants(j + 1),
          ctx.a(t),
          ctx.a(j),
          ctx.a(j + 1),
        ),
      );
    } else ctx.emit(call(`dot${k}`, ctx.a(j), constants(j), ctx.a(t), ctx.a(j)));
  }
}

/** Emits a loop running `body` `count` times, then advancing $sp and $kp. */
function loop(
  ctx: PartialRoundsContext,
  label: string,
  count: number,
  body: () => void,
  sp: number,
  kp: number,
): void {
  if (count === 0) return;
  ctx.emit(`(local.set $i (i32.const ${count}))`);
  ctx.emit(`(loop $${label}`);
  body();
  ctx.emit(`(local.set $sp (i32.add (local.get $sp) (i32.const ${sp})))`);
  ctx.emit(`(local.set $kp (i32.add (local.get $kp) (i32.const ${kp})))`);
  ctx.emit(`(br_if $${label} (local.tee $i (i32.sub (local.get $i) (i32.const 1))))`);
  ctx.emit(')');
}

/**
 * Emits the partial rounds, starting from u0 in T (bound `u0`) and s in A_1..A_n (bounds `s`);
 * returns the bounds after them. Uses the locals $sp, $kp and $i.
 */
export function partialRounds(
  ctx: PartialRoundsContext,
  u0: bigint,
  s: readonly bigint[],
): [bigint, bigint[]] {
  const { width: t, partialRounds: rounds, sparse } = ctx.constants;
  const n = t - 1;
  const at = (round: number) => {
    const base = round * (2 * t - 1);
    return {
      s00: sparse[base]!,
      w: sparse.slice(base + 1, base + t),
      v: sparse.slice(base + t, base + 2 * t - 1),
    };
  };
  const paired = t + 1 <= MAX_DOT_TERMS;
  const pairs = paired ? Math.floor(rounds / 2) : 0;
  const single = rounds - 2 * pairs;

  let first: number | undefined;
  const push = (values: readonly bigint[]): void => {
    const address = ctx.push(values);
    first ??= address;
  };
  for (let p = 0; p < pairs; p++) {
    const [r0, r1] = [at(2 * p), at(2 * p + 1)];
    const cross = r1.w.reduce((sum, w, j) => sum + w * r0.v[j]!, 0n) % P;
    push([...r0.w, r0.s00]);
    push([...r1.w, cross, r1.s00]);
    for (let j = 0; j < n; j++) push([r0.v[j]!, r1.v[j]!]);
  }
  for (let i = 2 * pairs; i < rounds; i++) {
    const r = at(i);
    push([...r.w, r.s00]);
    push(r.v);
  }
  if (first === undefined) throw new Error('partial-rounds-wat: no partial rounds');

  const E = ELEMENT_BYTES;
  ctx.emit(`(local.set $sp (i32.const ${first}))`);
  ctx.emit(`(local.set $kp (i32.const ${ctx.firstK}))`);
  loop(
    ctx,
    'pairs',
    pairs,
    () => {
      ctx.emit(call('sbox', ctx.a(t), ctx.t));
      ctx.emit(call(`dot${t}`, ctx.t, ptr('sp', 0), ctx.a(1), ptr('kp', 0)));
      ctx.emit(call('sbox', ctx.a(t + 1), ctx.t));
      ctx.emit(call(`dot${t + 1}`, ctx.t, ptr('sp', t * E), ctx.a(1), ptr('kp', E)));
      laneUpdates(ctx, n, 2, (j) => ptr('sp', (2 * t + 1 + 2 * (j - 1)) * E), t);
    },
    (2 * t + 1 + 2 * n) * E,
    2 * E,
  );
  loop(
    ctx,
    'single',
    single,
    () => {
      ctx.emit(call('sbox', ctx.a(t), ctx.t));
      ctx.emit(call(`dot${t}`, ctx.t, ptr('sp', 0), ctx.a(1), ptr('kp', 0)));
      for (let j = 1; j <= n; j++)
        ctx.emit(call('dot1', ctx.a(j), ptr('sp', (t + j - 1) * E), ctx.a(t), ctx.a(j)));
    },
    (2 * t - 1) * E,
    E,
  );

  // The same rounds on value bounds.
  let lanes = [...s];
  let row = u0;
  for (let p = 0; p < pairs; p++) {
    const y0 = ctx.sbox(row);
    row = ctx.dot([...lanes, y0], P);
    const y1 = ctx.sbox(row);
    row = ctx.dot([...lanes, y0, y1], P);
    lanes = lanes.map((v) => ctx.dot([y0, y1], v));
  }
  for (let i = 0; i < single; i++) {
    const y = ctx.sbox(row);
    row = ctx.dot([...lanes, y], P);
    lanes = lanes.map((v) => ctx.dot([y], v));
  }
  return [row, lanes];
}
