/**
 * A prover worker's attestation to the engine (DESIGN.md section 11), byte for byte what both
 * sides agree on. Its own layout and its own domains, so that an engine's transport evidence never
 * passes as a worker's and the reverse:
 *
 * - manifest, 132 bytes: version u16 BE ‖ reserved u16 (0) ‖ SHA-256(app_id) ‖
 *   SHA-256(instance_id) ‖ boot_session_id (32) ‖ X25519 sealing public key (32);
 * - `report_data` = engine nonce (32) ‖ SHA-256(`nightjar/prover-attestation/v1` ‖ manifest);
 * - the worker's release is its own compose hash: SHA-256(`nightjar/prover-release/v1` ‖ the
 *   release's compose hash bytes), so an engine's quote never replays to a pinned prover release.
 */
import { createHash } from 'node:crypto';
import { bytesToHex, hexToBytes, isHexOfWidth } from './encoding.js';
import { collateralCodec, eventLogEntryCodec } from './responses.js';
import {
  arrayOf,
  hexBytes,
  object,
  optional,
  required,
  smallUint,
  text,
  type InferObject,
} from './schema.js';

export const PROVER_MANIFEST_VERSION = 1;
export const PROVER_MANIFEST_BYTES = 132;
export const PROVER_REPORT_DOMAIN = 'nightjar/prover-attestation/v1';
export const PROVER_RELEASE_DOMAIN = 'nightjar/prover-release/v1';
/** The largest `POST /prover/register` body the engine reads (a quote, its log and collateral). */
export const PROVER_EVIDENCE_MAX_BYTES = 256 * 1024;

export interface ProverManifest {
  version: number;
  app_id_sha256: string;
  instance_id_sha256: string;
  boot_session_id: string;
  sealing_public_key: string;
}

const FIELDS = ['app_id_sha256', 'instance_id_sha256', 'boot_session_id', 'sealing_public_key'] as const;

export function encodeProverManifest(m: ProverManifest): Uint8Array {
  if (!Number.isInteger(m.version) || m.version < 0 || m.version > 0xffff)
    throw new RangeError('version must be a u16');
  const out = new Uint8Array(PROVER_MANIFEST_BYTES);
  new DataView(out.buffer).setUint16(0, m.version, false);
  FIELDS.forEach((field, i) => {
    if (!isHexOfWidth(m[field], 32)) throw new RangeError(`${field} must be 32 bytes of hex`);
    out.set(hexToBytes(m[field]), 4 + 32 * i);
  });
  return out;
}

export function decodeProverManifest(bytes: Uint8Array): ProverManifest {
  if (bytes.length !== PROVER_MANIFEST_BYTES)
    throw new RangeError(`a prover manifest is ${PROVER_MANIFEST_BYTES} bytes`);
  if (bytes[2] !== 0 || bytes[3] !== 0) throw new RangeError('prover manifest reserved bytes must be 0');
  const field = (i: number) => bytesToHex(bytes.subarray(4 + 32 * i, 36 + 32 * i));
  return {
    version: new DataView(bytes.buffer, bytes.byteOffset, 2).getUint16(0, false),
    app_id_sha256: field(0),
    instance_id_sha256: field(1),
    boot_session_id: field(2),
    sealing_public_key: field(3),
  };
}

/** `report_data` = nonce ‖ SHA-256(`nightjar/prover-attestation/v1` ‖ manifest bytes). */
export function proverReportData(nonce: Uint8Array, manifestBytes: Uint8Array): Uint8Array {
  if (nonce.length !== 32) throw new RangeError('the nonce is 32 bytes');
  const out = new Uint8Array(64);
  out.set(nonce, 0);
  out.set(createHash('sha256').update(PROVER_REPORT_DOMAIN).update(manifestBytes).digest(), 32);
  return out;
}

/** A prover release's compose hash from its venue release's (64 hex each). */
export function proverComposeHashOf(releaseComposeHash: string): string {
  if (!isHexOfWidth(releaseComposeHash, 32)) throw new RangeError('a compose hash is 32 bytes of hex');
  return createHash('sha256')
    .update(PROVER_RELEASE_DOMAIN)
    .update(hexToBytes(releaseComposeHash))
    .digest('hex');
}

/** A worker's id: hex of the first 16 bytes of SHA-256(its sealing public key). */
export function proverWorkerId(sealingPublicKey: Uint8Array): string {
  return createHash('sha256').update(sealingPublicKey).digest().subarray(0, 16).toString('hex');
}

export const proverChallengeCodec = object({
  nonce: required(hexBytes(32, { description: 'Single use; expires in about a minute.' })),
});
export type ProverChallengeResponse = InferObject<typeof proverChallengeCodec.props>;

export const proverEvidenceCodec = object({
  nonce: required(hexBytes(32, { description: 'A nonce from `GET /prover/challenge`.' })),
  manifest_bytes: required(hexBytes(PROVER_MANIFEST_BYTES)),
  sealing_public_key: required(hexBytes(32, { description: 'X25519: jobs are sealed to it.' })),
  boot_session_id: required(hexBytes(32)),
  quote: required(text({ maxLength: 65536, pattern: '^[0-9a-f]*$', description: 'DCAP quote (TDX v4).' })),
  event_log: required(arrayOf(eventLogEntryCodec, { maxItems: 4096 })),
  report_data: required(hexBytes(64)),
  collateral: optional(collateralCodec),
});
export type ProverEvidenceBody = InferObject<typeof proverEvidenceCodec.props>;

export const proverRegistrationCodec = object({
  worker_id: required(hexBytes(16)),
  engine_public_key: required(hexBytes(32, { description: "The engine's X25519 result key this boot." })),
  engine_id: required(text({ maxLength: 128 })),
  queue_url: required(text({ maxLength: 2048 })),
  ttl_ms: required(smallUint(86_400_000, 'The registration lapses after this long unless renewed.')),
});
export type ProverRegistrationResponse = InferObject<typeof proverRegistrationCodec.props>;
