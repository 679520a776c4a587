import { describe, expect, it } from 'vitest';
import { U64_MAX } from './encoding.js';
import { signedOrderBody } from '../test/fixtures/orders.js';
import { parseCancelBody, parseModifyBody } from './validate-cancel.js';

const cancel = {
  trading_key: 'bb'.repeat(32),
  cancel_nonce: '7',
  session_id: 'cc'.repeat(32),
  trading_key_signature: 'dd'.repeat(64),
};

describe('parseCancelBody', () => {
  it('accepts a well-formed cancel and parses the nonce exactly', () => {
    const r = parseCancelBody({ ...cancel, cancel_nonce: U64_MAX.toString() });
    expect(r.ok && r.value.cancel_nonce).toBe(U64_MAX);
  });

  it.each([
    ['leading zero', '07'],
    ['sign', '+7'],
    ['negative', '-7'],
    ['decimal point', '7.0'],
    ['exponent', '7e0'],
    ['whitespace', ' 7'],
    ['empty', ''],
    ['above u64', (U64_MAX + 1n).toString()],
    ['a JSON integer instead of a string', 7n],
  ])('refuses a non-canonical cancel_nonce (%s) with 1001', (_name, nonce) => {
    const r = parseCancelBody({ ...cancel, cancel_nonce: nonce });
    expect(r.ok ? 'ok' : r.code).toBe(1001);
  });

  it('refuses a body missing the session id (it could never verify)', () => {
    const { session_id: _omitted, ...rest } = cancel;
    const r = parseCancelBody(rest);
    expect(r.ok ? 'ok' : r.message).toBe('session_id: is required');
  });

  it('refuses unknown fields', () => {
    expect(parseCancelBody({ ...cancel, order_id: 'aa'.repeat(16) }).ok).toBe(false);
  });
});

describe('parseModifyBody', () => {
  const replacement = signedOrderBody();
  const modify = { cancel_signature: 'ee'.repeat(64), cancel_nonce: '3', replacement };

  it('accepts a well-formed modify', () => {
    expect(parseModifyBody(modify).ok).toBe(true);
  });

  it('applies the place-order rules to the replacement and names the path', () => {
    const r = parseModifyBody({ ...modify, replacement: { ...replacement, price_limit: undefined } });
    expect(r.ok ? 'ok' : r.message).toBe('replacement.price_limit: is required for a bid');
    const r2 = parseModifyBody({ ...modify, replacement: { ...replacement, order_id: 'x' } });
    expect(r2.ok ? 'ok' : r2.message).toMatch(/^replacement\.order_id:/);
  });

  it('refuses a missing replacement or bad cancel signature width', () => {
    expect(parseModifyBody({ cancel_signature: modify.cancel_signature, cancel_nonce: '1' }).ok).toBe(false);
    expect(parseModifyBody({ ...modify, cancel_signature: 'ee'.repeat(63) }).ok).toBe(false);
  });
});
