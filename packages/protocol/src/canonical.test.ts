import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORDER_TYPES, SIDES } from './bodies.js';
import {
  CANCEL_BODY_LENGTH,
  CanonicalDecodeError,
  decodeCancelBody,
  decodeOrderBody,
  encodeCancelBody,
  encodeOrderBody,
  ORDER_BODY_LENGTH,
  type OrderSigningFields,
} from './canonical.js';
import { U64_MAX } from './encoding.js';

const le64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};

const sample: OrderSigningFields = {
  symbol: 'SOL-USDC',
  side: 'ask',
  order_type: 'fok',
  amount: 0x0102030405060708n,
  price_limit: 5n,
  min_fill_size: 6n,
  expiry_slot: 7n,
  order_id: '0f'.repeat(16),
  note_commitment: '1e'.repeat(32),
  arrival_nonce: U64_MAX,
  viewing_pubkey: '2d'.repeat(32),
  session_id: '3c'.repeat(32),
};

describe('order body (venue-order-v5)', () => {
  it('lays out every field at the offsets of DESIGN.md section 2', () => {
    const expected = Buffer.concat([
      Buffer.from('venue-order-v5', 'ascii'),
      Buffer.from([8]),
      Buffer.concat([Buffer.from('SOL-USDC', 'ascii'), Buffer.alloc(24)]),
      Buffer.from([1, 2]),
      le64(0x0102030405060708n),
      le64(5n),
      le64(6n),
      le64(7n),
      Buffer.from('0f'.repeat(16), 'hex'),
      Buffer.from('1e'.repeat(32), 'hex'),
      le64(U64_MAX),
      Buffer.from('2d'.repeat(32), 'hex'),
      Buffer.from('3c'.repeat(32), 'hex'),
    ]);
    expect(expected.length).toBe(ORDER_BODY_LENGTH);
    const encoded = Buffer.from(encodeOrderBody(sample));
    expect(encoded.equals(expected)).toBe(true);
    expect(encoded[47]).toBe(1);
    expect(encoded[48]).toBe(2);
    expect(encoded.subarray(49, 57).equals(Buffer.from([8, 7, 6, 5, 4, 3, 2, 1]))).toBe(true);
  });

  it('refuses symbols it cannot encode', () => {
    expect(() => encodeOrderBody({ ...sample, symbol: '' })).toThrow(RangeError);
    expect(() => encodeOrderBody({ ...sample, symbol: 'X'.repeat(33) })).toThrow(RangeError);
    expect(() => encodeOrderBody({ ...sample, symbol: 'SOL-USDÇ' })).toThrow(RangeError);
  });

  it('refuses non-canonical bytes when decoding', () => {
    const good = Buffer.from(encodeOrderBody(sample));
    const badPadding = Buffer.from(good);
    badPadding[40] = 1;
    expect(() => decodeOrderBody(badPadding)).toThrow(CanonicalDecodeError);
    const badSide = Buffer.from(good);
    badSide[47] = 2;
    expect(() => decodeOrderBody(badSide)).toThrow(CanonicalDecodeError);
    const badLength = Buffer.from(good);
    badLength[14] = 0;
    expect(() => decodeOrderBody(badLength)).toThrow(CanonicalDecodeError);
    expect(() => decodeOrderBody(good.subarray(1))).toThrow(CanonicalDecodeError);
  });

  const hexOf = (bytes: number) =>
    fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
  const u64 = fc.bigInt({ min: 0n, max: U64_MAX });
  const order = fc.record({
    symbol: fc.stringMatching(/^[A-Z0-9]{1,15}-[A-Z0-9]{1,16}$/),
    side: fc.constantFrom(...SIDES),
    order_type: fc.constantFrom(...ORDER_TYPES),
    amount: u64,
    price_limit: u64,
    min_fill_size: u64,
    expiry_slot: u64,
    order_id: hexOf(16),
    note_commitment: hexOf(32),
    arrival_nonce: u64,
    viewing_pubkey: hexOf(32),
    session_id: hexOf(32),
  });

  it('encode → decode round-trips every order', () => {
    fc.assert(
      fc.property(order, (o) => {
        const bytes = encodeOrderBody(o);
        expect(bytes.length).toBe(ORDER_BODY_LENGTH);
        expect(decodeOrderBody(bytes)).toEqual(o);
      }),
      { numRuns: 500 },
    );
  });

  it('decode → encode round-trips every byte string that decodes', () => {
    fc.assert(
      fc.property(order, fc.nat(ORDER_BODY_LENGTH - 1), fc.integer({ min: 0, max: 255 }), (o, at, value) => {
        const bytes = Buffer.from(encodeOrderBody(o));
        bytes[at] = value;
        let decoded: OrderSigningFields;
        try {
          decoded = decodeOrderBody(bytes);
        } catch (err) {
          expect(err).toBeInstanceOf(CanonicalDecodeError);
          return;
        }
        expect(Buffer.from(encodeOrderBody(decoded)).equals(bytes)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('cancel body (venue-cancel-v1)', () => {
  it('is domain ‖ order_id ‖ trading_key ‖ cancel_nonce LE ‖ session_id, 103 bytes', () => {
    const fields = {
      order_id: 'aa'.repeat(16),
      trading_key: 'bb'.repeat(32),
      cancel_nonce: 258n,
      session_id: 'cc'.repeat(32),
    };
    const expected = Buffer.concat([
      Buffer.from('venue-cancel-v1', 'ascii'),
      Buffer.from('aa'.repeat(16), 'hex'),
      Buffer.from('bb'.repeat(32), 'hex'),
      le64(258n),
      Buffer.from('cc'.repeat(32), 'hex'),
    ]);
    expect(expected.length).toBe(CANCEL_BODY_LENGTH);
    expect(Buffer.from(encodeCancelBody(fields)).equals(expected)).toBe(true);
    expect(decodeCancelBody(expected)).toEqual(fields);
  });

  it('refuses another length or domain', () => {
    const good = Buffer.from(
      encodeCancelBody({
        order_id: 'aa'.repeat(16),
        trading_key: 'bb'.repeat(32),
        cancel_nonce: 1n,
        session_id: 'cc'.repeat(32),
      }),
    );
    expect(() => decodeCancelBody(good.subarray(0, 102))).toThrow(CanonicalDecodeError);
    const wrongDomain = Buffer.from(good);
    wrongDomain[0] = 0x56;
    expect(() => decodeCancelBody(wrongDomain)).toThrow(CanonicalDecodeError);
  });
});
