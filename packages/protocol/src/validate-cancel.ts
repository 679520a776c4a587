/** Cancel and modify bodies: parsing (1001) and their signature checks (1102 / 1103 by the engine). */
import { cancelCodec, modifyCodec, type CancelBody, type ModifyBody } from './bodies.js';
import { cancelSigningFields, encodeCancelBody, modifyCancelFields, verifyCanonical } from './canonical.js';
import { parseBody, type ParseResult } from './parse-body.js';
import { parsePlaceOrderBody } from './validate-order.js';

export function parseCancelBody(raw: unknown): ParseResult<CancelBody> {
  return parseBody(cancelCodec, raw);
}

/** Parses a modify body; the replacement gets the same field rules as a fresh place. */
export function parseModifyBody(raw: unknown): ParseResult<ModifyBody> {
  const parsed = parseBody(modifyCodec, raw);
  if (!parsed.ok) return parsed;
  const replacement = parsePlaceOrderBody(parsed.value.replacement);
  if (!replacement.ok) return { ok: false, code: 1001, message: `replacement.${replacement.message}` };
  return parsed;
}

/** Does the cancel signature verify for this order id? */
export function verifyCancelSignature(orderId: string, body: CancelBody): boolean {
  return verifyCanonical(
    body.trading_key,
    encodeCancelBody(cancelSigningFields(orderId, body)),
    body.trading_key_signature,
  );
}

/** Does the modify's cancel signature verify for the old (path) order id? */
export function verifyModifyCancelSignature(oldOrderId: string, body: ModifyBody): boolean {
  const fields = modifyCancelFields(oldOrderId, body.cancel_nonce, body.replacement);
  return verifyCanonical(body.replacement.trading_key, encodeCancelBody(fields), body.cancel_signature);
}
