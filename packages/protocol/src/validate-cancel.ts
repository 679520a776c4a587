/**
 * Cancel and modify bodies: parsing (1001). Their signatures (1102 / 1103) are checked by the
 * engine's intake, over `cancelSigningFields` / `modifyCancelFields` from canonical.ts.
 */
import { cancelCodec, modifyCodec, type CancelBody, type ModifyBody } from './bodies.js';
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
