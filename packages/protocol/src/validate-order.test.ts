import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlaceOrderBody } from './bodies.js';
import { FIELD_MODULUS, U64_MAX } from './encoding.js';
import { ERROR_CATALOGUE, isErrorCode } from './errors.js';
import { parseJsonExact, stringifyJson } from './json.js';
import { LOW_ORDER_VIEWING_KEY, signedOrderBody, testContext, TEST_MARKET } from '../test/fixtures/orders.js';
import { INTAKE_CHECKS, validatePlaceOrder } from './validate-order.js';

const ctx = testContext();
const codeOf = (raw: unknown, c = ctx) => {
  const r = validatePlaceOrder(raw, c);
  return r.ok ? 'ok' : r.code;
};
/** Round-trips through the exact JSON parser, as the engine receives bodies. */
const wire = (body: object) => parseJsonExact(stringifyJson(body));

describe('validatePlaceOrder', () => {
  it('accepts a valid signed bid and returns the canonical body and defaults', () => {
    const r = validatePlaceOrder(wire(signedOrderBody()), ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.order.canonical_body.length).toBe(201);
    expect(r.order.min_fill_size).toBe(0n);
    expect(r.order.tree_id).toBe(0);
    expect(r.order.collateral_mint).toBe(TEST_MARKET.quote_mint);
    // 2e9 * 150e6 / 1e9 = 300e6 nominal; fee 10 bps = 300_000.
    expect(r.order.required_collateral).toBe(300_300_000n);
    expect(r.order.note_amount).toBe(300_300_000n);
  });

  it('accepts an ask at price 0 with the base mint as collateral', () => {
    const body = signedOrderBody({ side: 'ask', price_limit: 0n });
    const r = validatePlaceOrder(wire(body), ctx);
    expect(r.ok && r.order.collateral_mint).toBe(TEST_MARKET.base_mint);
    expect(r.ok && r.order.required_collateral).toBe(2_000_000_000n + 2_000_000n);
  });

  it('defaults an omitted ask price_limit to 0', () => {
    const body: Partial<PlaceOrderBody> = signedOrderBody({ side: 'ask', price_limit: 0n });
    delete body.price_limit;
    const r = validatePlaceOrder(wire(body), ctx);
    expect(r.ok && r.order.price_limit).toBe(0n);
  });

  it('keeps u64 values above 2^53 exact', () => {
    const big = (1n << 60n) + 1n;
    const body = signedOrderBody({ arrival_nonce: big });
    const r = validatePlaceOrder(parseJsonExact(stringifyJson(body)), ctx);
    expect(r.ok && r.order.arrival_nonce).toBe(big);
  });

  it('accepts upper-case hex and normalises it to lower case', () => {
    const body = signedOrderBody();
    const upper = {
      ...body,
      order_id: body.order_id.toUpperCase(),
      trading_key: body.trading_key.toUpperCase(),
    };
    const r = validatePlaceOrder(wire(upper), ctx);
    expect(r.ok && r.order.order_id).toBe(body.order_id);
  });

  describe('1001 malformed', () => {
    const valid = signedOrderBody();
    const cases: [string, unknown][] = [
      ['not an object', 'hello'],
      ['an array', [valid]],
      ['null', null],
      ['unknown field', { ...valid, extra: 1n }],
      ['missing order_id', { ...valid, order_id: undefined }],
      ['short order_id', { ...valid, order_id: 'ab' }],
      ['zero order_id', { ...valid, order_id: '0'.repeat(32) }],
      ['non-hex order_id', { ...valid, order_id: 'zz'.repeat(16) }],
      ['amount as string', { ...valid, amount: '100' }],
      ['amount as float token', { ...valid, amount: parseJsonExact('1.5') }],
      ['amount 1.0', parseJsonExact(stringifyJson(valid).replace(/"amount":\d+/, '"amount":2000000000.0'))],
      ['amount 2e9', parseJsonExact(stringifyJson(valid).replace(/"amount":\d+/, '"amount":2e9'))],
      ['negative amount', { ...valid, amount: -1n }],
      ['u64 overflow', { ...valid, amount: U64_MAX + 1n }],
      ['side other', { ...valid, side: 'buy' }],
      ['order_type market', { ...valid, order_type: 'market' }],
      ['symbol too long', { ...valid, symbol: 'A'.repeat(30) + '-USDC' }],
      ['symbol lowercase', { ...valid, symbol: 'sol-usdc' }],
      ['field element >= r', { ...valid, owner_commitment: FIELD_MODULUS.toString(16).padStart(64, '0') }],
      ['note_commitment all ff', { ...valid, note_commitment: 'f'.repeat(64) }],
      ['proof wrong width', { ...valid, valid_input_proof: '44'.repeat(255) }],
      ['signature wrong width', { ...valid, trading_key_signature: 'aa'.repeat(63) }],
      ['bid without price_limit', { ...valid, price_limit: undefined }],
      ['min_fill_size above amount', { ...valid, min_fill_size: valid.amount + 1n }],
      ['tree_id out of range', { ...valid, tree_id: 4n }],
      ['tree_id negative', { ...valid, tree_id: -1n }],
      ['null optional field', { ...valid, collateral_amount: null }],
      ['boolean amount', { ...valid, amount: true }],
    ];
    it.each(cases)('%s', (_name, body) => {
      const r = validatePlaceOrder(body, ctx);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe(1001);
    });

    it('names the offending field without echoing its value', () => {
      const r = validatePlaceOrder({ ...valid, merkle_root: 'secret-looking-value' }, ctx);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.message).toMatch(/^merkle_root:/);
      expect(r.message).not.toContain('secret-looking-value');
    });
  });

  it('1301 for an unknown symbol', () => {
    expect(codeOf(signedOrderBody({ symbol: 'BTC-USDC' }))).toBe(1301);
  });

  it.each([
    ['1004 amount below market minimum', { amount: 999_999n }, 1004],
    ['1005 bid with zero price', { price_limit: 0n }, 1005],
    ['1003 collateral_amount below required', { collateral_amount: 300_299_999n }, 1003],
    ['1009 price off tick', { price_limit: 150_000_001n }, 1009],
    ['1007 expiry beyond lifetime', { expiry_slot: 1_000n + 4_501n }, 1007],
    ['1012 expiry inside the buffer', { expiry_slot: 1_020n }, 1012],
    ['1012 expiry in the past', { expiry_slot: 10n }, 1012],
    ['1008 low-order viewing key', { viewing_pubkey: LOW_ORDER_VIEWING_KEY }, 1008],
  ] as const)('%s', (_name, overrides, code) => {
    expect(codeOf(wire(signedOrderBody(overrides)))).toBe(code);
  });

  it('accepts the boundaries of the expiry window', () => {
    expect(codeOf(wire(signedOrderBody({ expiry_slot: 1_000n + 4_500n })))).toBe('ok');
    expect(codeOf(wire(signedOrderBody({ expiry_slot: 1_021n })))).toBe('ok');
  });

  it('accepts collateral_amount above the requirement (change note) and exactly at it', () => {
    expect(codeOf(wire(signedOrderBody({ collateral_amount: 10n ** 12n })))).toBe('ok');
    expect(codeOf(wire(signedOrderBody({ collateral_amount: 300_300_000n })))).toBe('ok');
  });

  it('1006 when the opening does not re-derive the commitment', () => {
    const body = signedOrderBody();
    expect(codeOf(wire({ ...body, note_inner_hash: '23'.repeat(32) }))).toBe(1006);
  });

  it('1102 when the signature does not cover the body', () => {
    const body = signedOrderBody();
    expect(codeOf(wire({ ...body, arrival_nonce: 2n }))).toBe(1102);
    const sig = body.trading_key_signature;
    const flipped = sig.slice(0, 10) + (sig[10] === '0' ? '1' : '0') + sig.slice(11);
    expect(codeOf(wire({ ...body, trading_key_signature: flipped }))).toBe(1102);
  });

  it('1102 for a small-order trading key even with an identity-forgery signature', () => {
    const identity = '01' + '00'.repeat(31);
    const forged = signedOrderBody({
      trading_key: identity,
      trading_key_signature: identity + '00'.repeat(32),
    });
    expect(codeOf(wire(forged))).toBe(1102);
  });

  describe('reports the earliest failing check in the spec order', () => {
    // Each pair breaks two checks; the one earlier in INTAKE_CHECKS must be reported.
    const pairs: [string, Partial<PlaceOrderBody>, number][] = [
      ['1001 before 1004', { amount: 1n, order_id: '0'.repeat(32) }, 1001],
      ['1004 before 1005', { amount: 1n, price_limit: 0n }, 1004],
      ['1005 before 1012', { price_limit: 0n, expiry_slot: 1n }, 1005],
      ['1006 before 1003', { collateral_amount: 1n, note_commitment: '01'.repeat(32) }, 1006],
      ['1003 before 1009', { collateral_amount: 1n, price_limit: 150_000_001n }, 1003],
      ['1009 before 1102', { price_limit: 150_000_001n, trading_key_signature: 'aa'.repeat(64) }, 1009],
      [
        '1102 before 1008',
        { viewing_pubkey: LOW_ORDER_VIEWING_KEY, trading_key_signature: 'aa'.repeat(64) },
        1102,
      ],
      ['1008 before 1007', { viewing_pubkey: LOW_ORDER_VIEWING_KEY, expiry_slot: 10_000n }, 1008],
      ['1004 before 1012', { amount: 1n, expiry_slot: 1n }, 1004],
    ];
    it.each(pairs)('%s', (_name, overrides, code) => {
      expect(codeOf(wire(signedOrderBody(overrides)))).toBe(code);
    });

    it('the intake table lists the spec codes in the spec order', () => {
      expect(INTAKE_CHECKS.map((c) => c.code)).toEqual([
        1001, 1004, 1005, 1006, 1003, 1009, 1102, 1008, 1007, 1012, 1010, 1011, 1205, 1201, 1202, 1401,
      ]);
    });
  });

  it('1003 when the required collateral exceeds any u64 note', () => {
    const body = signedOrderBody({ amount: U64_MAX, price_limit: U64_MAX - (U64_MAX % 1000n) });
    expect(codeOf(wire(body))).toBe(1003);
  });
});

describe('validatePlaceOrder properties', () => {
  const specCodes = new Set(Object.keys(ERROR_CATALOGUE).map(Number));
  const valid = signedOrderBody();
  const fieldNames = Object.keys(valid);
  const anyValue = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 600 }),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  );

  it('never throws on arbitrary JSON-like input and yields a valid order or exactly one spec code', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.anything(), fc.dictionary(fc.constantFrom(...fieldNames, 'extra'), anyValue)),
        (body) => {
          const r = validatePlaceOrder(body, ctx);
          if (!r.ok) {
            expect(isErrorCode(r.code) && specCodes.has(r.code)).toBe(true);
            expect(typeof r.message).toBe('string');
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('mutating one field of a valid order yields a valid order or exactly one spec code', () => {
    fc.assert(
      fc.property(fc.constantFrom(...fieldNames), anyValue, (field, value) => {
        const r = validatePlaceOrder({ ...valid, [field]: value }, ctx);
        expect(r.ok || specCodes.has(r.code)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('random JSON text through the exact parser never crashes validation', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const r = validatePlaceOrder(parseJsonExact(text), ctx);
        expect(r.ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});
