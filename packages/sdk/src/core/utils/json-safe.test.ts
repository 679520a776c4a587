/** `toJsonSafe` / `fromJsonSafe`: bigints and bytes through JSON.stringify and back. */
import { describe, expect, it } from 'vitest';
import { NightjarError, NIGHTJAR_ERROR__INSUFFICIENT_NOTES } from '../errors/index.js';
import { fromJsonSafe, toJsonSafe } from './json-safe.js';

const order = {
  order_id: 'aa'.repeat(16),
  amount: 1_000_000_000n,
  price_limit: 150_000_000n,
  fills: [{ quantity: 2n ** 64n - 1n, memo: Uint8Array.from([0, 15, 255]) }],
  expiry: { seconds: 30 },
  note: undefined,
  done: false,
};

describe('toJsonSafe', () => {
  it('bigints as decimal strings and bytes as hex, at any depth', () => {
    expect(() => JSON.stringify(order)).toThrow(TypeError);
    const safe = toJsonSafe(order);
    expect(JSON.parse(JSON.stringify(safe))).toEqual({
      order_id: 'aa'.repeat(16),
      amount: '1000000000',
      price_limit: '150000000',
      fills: [{ quantity: '18446744073709551615', memo: '000fff' }],
      expiry: { seconds: 30 },
      done: false,
    });
    expect(order.amount).toBe(1_000_000_000n); // a copy: the input is untouched
  });

  it('Maps as objects and Sets as arrays; negative bigints keep their sign', () => {
    const safe = toJsonSafe({ orders: new Map([['o1', { filled: -3n }]]), ids: new Set([1n, 2n]) });
    expect(safe).toEqual({ orders: { o1: { filled: '-3' } }, ids: ['1', '2'] });
  });

  it('an error as its fields with name and message (a NightjarError’s bigint context too)', () => {
    const err = new NightjarError(NIGHTJAR_ERROR__INSUFFICIENT_NOTES, {
      mint: 'M',
      required: 5n,
      available: 2n,
    });
    const safe = JSON.parse(JSON.stringify(toJsonSafe({ failed: [{ error: err }] }))) as {
      failed: { error: Record<string, unknown> }[];
    };
    expect(safe.failed[0]!.error).toMatchObject({
      name: 'NightjarError',
      code: err.code,
      message: err.message,
    });
    expect(safe.failed[0]!.error.context).toEqual({ mint: 'M', required: '5', available: '2' });
  });
});

describe('fromJsonSafe', () => {
  it('turns the named fields back, everything else as JSON gave it', () => {
    const parsed: unknown = JSON.parse(JSON.stringify(toJsonSafe(order)));
    const back = fromJsonSafe(parsed, { bigints: ['amount', 'price_limit', 'quantity'], bytes: ['memo'] });
    const { note: _omitted, ...expected } = order;
    expect(back).toEqual(expected);
  });

  it('a named field that is not a decimal integer throws', () => {
    expect(() => fromJsonSafe({ amount: '1.5' }, { bigints: ['amount'] })).toThrow(SyntaxError);
    expect(() => fromJsonSafe({ memo: 'zz' }, { bytes: ['memo'] })).toThrow(TypeError);
  });
});
