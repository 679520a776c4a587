import { describe, expect, it } from 'vitest';
import { JsonNonInteger, JsonSyntaxError, parseJsonExact, stringifyJson } from './json.js';

describe('parseJsonExact', () => {
  it('keeps integers above 2^53 exact as bigint', () => {
    const v = parseJsonExact('{"a":18446744073709551615,"b":9007199254740993,"c":0}') as Record<
      string,
      unknown
    >;
    expect(v).toEqual({ a: 18446744073709551615n, b: 9007199254740993n, c: 0n });
  });

  it('marks non-integer number tokens instead of rounding them', () => {
    const v = parseJsonExact('[1.0, 1e3, -0, 0.5]') as unknown[];
    expect(v.every((x) => x instanceof JsonNonInteger)).toBe(true);
    expect((v[1] as JsonNonInteger).text).toBe('1e3');
  });

  it('refuses conflicting duplicate keys, bad syntax and excessive nesting with JsonSyntaxError', () => {
    expect(() => parseJsonExact('{"a":1,"a":2}')).toThrow(JsonSyntaxError);
    expect(() => parseJsonExact('{"a":1')).toThrow(JsonSyntaxError);
    expect(() => parseJsonExact('')).toThrow(JsonSyntaxError);
    expect(() => parseJsonExact('['.repeat(17) + ']'.repeat(17))).toThrow(JsonSyntaxError);
    expect(() => parseJsonExact('['.repeat(200_000))).toThrow(JsonSyntaxError);
    expect(parseJsonExact('['.repeat(16) + ']'.repeat(16))).toBeInstanceOf(Array);
  });

  it('ignores brackets inside strings when measuring depth', () => {
    expect(parseJsonExact(`{"s":"${'['.repeat(100)}\\"["}`)).toEqual({ s: '['.repeat(100) + '"[' });
  });
});

describe('stringifyJson', () => {
  it('writes bigint as a plain integer', () => {
    expect(stringifyJson({ a: 18446744073709551615n, b: [1n], c: 'x' })).toBe(
      '{"a":18446744073709551615,"b":[1],"c":"x"}',
    );
  });
  it('round-trips through parseJsonExact', () => {
    const v = { n: 123456789012345678901234567890n, s: 'é', nested: { arr: [0n, 1n] } };
    expect(parseJsonExact(stringifyJson(v))).toEqual(v);
  });
});
