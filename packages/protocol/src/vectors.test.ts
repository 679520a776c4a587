import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { placeOrderCodec, type CancelBody, type ModifyBody } from './bodies.js';
import {
  cancelSigningFields,
  decodeOrderBody,
  encodeCancelBody,
  encodeOrderBody,
  modifyCancelFields,
  orderSigningFields,
  signCanonical,
  signingDigest,
  verifyCanonical,
} from './canonical.js';
import { ed25519PublicKey } from './ed25519.js';
import { bytesToHex, hexToBytes, U64_MAX } from './encoding.js';
import { parseJsonExact, stringifyJson } from './json.js';
import { parseCancelBody, parseModifyBody } from './validate-cancel.js';
import { buildSigningVectors, type SigningVectors } from './vectors.js';

const file = new URL('../vectors/signing.json', import.meta.url);
const vectors = parseJsonExact(readFileSync(file, 'utf8'), 32) as SigningVectors;
const sha256 = (hex: string) => bytesToHex(signingDigest(hexToBytes(hex)));

/** Does the cancel signature verify for this order id? */
function verifyCancelSignature(orderId: string, body: CancelBody): boolean {
  const bytes = encodeCancelBody(cancelSigningFields(orderId, body));
  return verifyCanonical(body.trading_key, bytes, body.trading_key_signature);
}

/** Does the modify's cancel signature verify for the old (path) order id? */
function verifyModifyCancelSignature(oldOrderId: string, body: ModifyBody): boolean {
  const fields = modifyCancelFields(oldOrderId, body.cancel_nonce, body.replacement);
  return verifyCanonical(body.replacement.trading_key, encodeCancelBody(fields), body.cancel_signature);
}

describe('signing vectors', () => {
  it('cover every side and order type, a 32-character symbol and u64 maxima', () => {
    expect(vectors.orders.length).toBeGreaterThanOrEqual(5);
    const combos = new Set(vectors.orders.map((v) => `${v.body.side}/${v.body.order_type}`));
    for (const side of ['bid', 'ask'])
      for (const type of ['limit', 'ioc', 'fok']) expect(combos.has(`${side}/${type}`)).toBe(true);
    expect(vectors.orders.some((v) => v.body.symbol.length === 32)).toBe(true);
    expect(vectors.orders.some((v) => v.body.amount === U64_MAX && v.body.arrival_nonce === U64_MAX)).toBe(
      true,
    );
    expect(vectors.cancels.length).toBeGreaterThanOrEqual(3);
    expect(vectors.modifies.length).toBeGreaterThanOrEqual(1);
  });

  it('the file is exactly what the generator produces from the fixed keys', () => {
    expect(readFileSync(file, 'utf8')).toBe(stringifyJson(buildSigningVectors(), 2) + '\n');
  });

  it.each(vectors.orders.map((v) => [v.name, v] as const))(
    'order %s: bytes, digest and signature recompute',
    (_n, v) => {
      const body = placeOrderCodec.parse(v.body);
      const seed = hexToBytes(v.seed);
      expect(bytesToHex(ed25519PublicKey(seed))).toBe(body.trading_key);
      const canonical = encodeOrderBody(orderSigningFields(body));
      expect(bytesToHex(canonical)).toBe(v.canonical_hex);
      expect(canonical.length).toBe(201);
      expect(sha256(v.canonical_hex)).toBe(v.digest_hex);
      expect(signCanonical(seed, canonical)).toBe(body.trading_key_signature);
      expect(verifyCanonical(body.trading_key, canonical, body.trading_key_signature)).toBe(true);
      expect(decodeOrderBody(canonical)).toEqual(orderSigningFields(body));
    },
  );

  it.each(vectors.cancels.map((v) => [v.name, v] as const))(
    'cancel %s: bytes, digest and signature recompute',
    (_n, v) => {
      const parsed = parseCancelBody(v.body);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const canonical = encodeCancelBody({ order_id: v.order_id, ...parsed.value });
      expect(bytesToHex(canonical)).toBe(v.canonical_hex);
      expect(sha256(v.canonical_hex)).toBe(v.digest_hex);
      expect(signCanonical(hexToBytes(v.seed), canonical)).toBe(v.body.trading_key_signature);
      expect(verifyCancelSignature(v.order_id, parsed.value)).toBe(true);
      expect(verifyCancelSignature('ff'.repeat(16), parsed.value)).toBe(false);
    },
  );

  it.each(vectors.modifies.map((v) => [v.name, v] as const))(
    'modify %s: both signatures recompute and bind',
    (_n, v) => {
      const parsed = parseModifyBody(v.body);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const body = parsed.value;
      const cancelBytes = encodeCancelBody(
        modifyCancelFields(v.old_order_id, body.cancel_nonce, body.replacement),
      );
      expect(bytesToHex(cancelBytes)).toBe(v.cancel_canonical_hex);
      expect(sha256(v.cancel_canonical_hex)).toBe(v.cancel_digest_hex);
      expect(signCanonical(hexToBytes(v.seed), cancelBytes)).toBe(body.cancel_signature);
      expect(verifyModifyCancelSignature(v.old_order_id, body)).toBe(true);
      // The binding covers the path id, the nonce and the replacement's session.
      expect(verifyModifyCancelSignature(body.replacement.order_id, body)).toBe(false);
      expect(
        verifyModifyCancelSignature(v.old_order_id, { ...body, cancel_nonce: body.cancel_nonce + 1n }),
      ).toBe(false);
      expect(
        verifyModifyCancelSignature(v.old_order_id, {
          ...body,
          replacement: { ...body.replacement, session_id: '00'.repeat(32) },
        }),
      ).toBe(false);
      const replacementBytes = encodeOrderBody(orderSigningFields(body.replacement));
      expect(bytesToHex(replacementBytes)).toBe(v.replacement_canonical_hex);
      expect(
        verifyCanonical(
          body.replacement.trading_key,
          replacementBytes,
          body.replacement.trading_key_signature,
        ),
      ).toBe(true);
    },
  );
});
