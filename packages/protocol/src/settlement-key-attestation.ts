/**
 * An engine's settlement key, attested (DESIGN 11): what one engine of a venue fetches from a
 * peer before it puts that peer's key in the ledger's signer set, so that a row written straight
 * into the engines table (a PostgreSQL operator, a leaked password) never makes a signer.
 *
 * `report_data` = caller nonce (32) ‖ SHA-256(`nightjar/settlement-key/v1` ‖ the 32-byte key). The
 * caller chooses the nonce only, never the bytes hashed, and the domain is this route's own, so
 * the route quotes no caller-chosen bytes in the transport layout (DESIGN 8) or a worker's.
 */
import { createHash } from 'node:crypto';
import { collateralCodec, eventLogEntryCodec } from './responses.js';
import {
  arrayOf,
  base58Address,
  hexBytes,
  object,
  optional,
  required,
  text,
  type InferObject,
} from './schema.js';

export const SETTLEMENT_KEY_REPORT_DOMAIN = 'nightjar/settlement-key/v1';
/** The largest settlement-key evidence a peer engine reads (a quote, its log and collateral). */
export const SETTLEMENT_KEY_EVIDENCE_MAX_BYTES = 256 * 1024;

/** `report_data` = nonce ‖ SHA-256(`nightjar/settlement-key/v1` ‖ key), 64 bytes. */
export function settlementKeyReportData(nonce: Uint8Array, key: Uint8Array): Uint8Array {
  if (nonce.length !== 32) throw new RangeError('the nonce is 32 bytes');
  if (key.length !== 32) throw new RangeError('a settlement key is 32 bytes');
  const out = new Uint8Array(64);
  out.set(nonce, 0);
  out.set(createHash('sha256').update(SETTLEMENT_KEY_REPORT_DOMAIN).update(key).digest(), 32);
  return out;
}

export const settlementKeyEvidenceCodec = object({
  tee_key: required(base58Address('The settlement key (the ledger address the engine signs as).')),
  quote: required(text({ maxLength: 65536, pattern: '^[0-9a-f]*$', description: 'DCAP quote (TDX v4).' })),
  event_log: required(arrayOf(eventLogEntryCodec, { maxItems: 4096 })),
  report_data: required(
    hexBytes(64, {
      description: 'The quoted bytes: nonce ‖ SHA-256("nightjar/settlement-key/v1" ‖ tee_key\'s 32 bytes).',
    }),
  ),
  collateral: optional(collateralCodec),
});
export type SettlementKeyEvidence = InferObject<typeof settlementKeyEvidenceCodec.props>;
