/**
 * Transport attestation encodings both sides must agree on byte for byte (DESIGN.md section 8):
 * the 164-byte manifest, the quote's 64-byte report data, runtime event digests and the RTMR
 * replay. The engine builds evidence with these; the SDK checks evidence with them.
 */
import { createHash } from 'node:crypto';
import { bytesToHex, hexToBytes, isHexOfWidth } from './encoding.js';

export const TRANSPORT_PROTOCOL_VERSION = 1;
/** TLS is terminated inside the engine itself. */
export const TRANSPORT_MODE_ENGINE_TLS = 1;
export const TRANSPORT_MANIFEST_BYTES = 164;
export const TRANSPORT_REPORT_DOMAIN = 'venue/transport-attestation/v1';
/** Domain of `GET /attestation`'s report data, so that it can never take the transport layout. */
export const ATTESTATION_REPORT_DOMAIN = 'venue/attestation/v1';
/** The most caller bytes `GET /attestation` takes. */
export const ATTESTATION_CALLER_DATA_MAX_BYTES = 64;
/** dstack's event type for runtime events (extended into RTMR3 by the guest). */
export const RUNTIME_EVENT_TYPE = 0x08000001;
export const COMPOSE_HASH_EVENT = 'compose-hash';
/** SHA-384 output; every RTMR and event digest has this width. */
export const RTMR_BYTES = 48;

export interface TransportManifest {
  protocol_version: number;
  transport_mode: number;
  app_id_sha256: string;
  instance_id_sha256: string;
  boot_session_id: string;
  tls_spki_sha256: string;
  signer_set_sha256: string;
}

const HASH_FIELDS = [
  'app_id_sha256',
  'instance_id_sha256',
  'boot_session_id',
  'tls_spki_sha256',
  'signer_set_sha256',
] as const;

/** protocol_version u16 BE ‖ transport_mode u8 ‖ reserved u8 (0) ‖ five 32-byte fields. */
export function encodeTransportManifest(m: TransportManifest): Uint8Array {
  const out = new Uint8Array(TRANSPORT_MANIFEST_BYTES);
  const view = new DataView(out.buffer);
  if (!Number.isInteger(m.protocol_version) || m.protocol_version < 0 || m.protocol_version > 0xffff)
    throw new RangeError('protocol_version must be a u16');
  if (!Number.isInteger(m.transport_mode) || m.transport_mode < 0 || m.transport_mode > 0xff)
    throw new RangeError('transport_mode must be a u8');
  view.setUint16(0, m.protocol_version, false);
  out[2] = m.transport_mode;
  out[3] = 0;
  HASH_FIELDS.forEach((field, i) => {
    if (!isHexOfWidth(m[field], 32)) throw new RangeError(`${field} must be 32 bytes of hex`);
    out.set(hexToBytes(m[field]), 4 + 32 * i);
  });
  return out;
}

export function decodeTransportManifest(bytes: Uint8Array): TransportManifest {
  if (bytes.length !== TRANSPORT_MANIFEST_BYTES)
    throw new RangeError(`a manifest is ${TRANSPORT_MANIFEST_BYTES} bytes`);
  if (bytes[3] !== 0) throw new RangeError('manifest reserved byte must be 0');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const field = (i: number) => bytesToHex(bytes.subarray(4 + 32 * i, 36 + 32 * i));
  return {
    protocol_version: view.getUint16(0, false),
    transport_mode: bytes[2]!,
    app_id_sha256: field(0),
    instance_id_sha256: field(1),
    boot_session_id: field(2),
    tls_spki_sha256: field(3),
    signer_set_sha256: field(4),
  };
}

/** `report_data` = nonce ‖ SHA-256(`venue/transport-attestation/v1` ‖ manifest bytes). */
export function transportReportData(nonce: Uint8Array, manifestBytes: Uint8Array): Uint8Array {
  if (nonce.length !== 32) throw new RangeError('the nonce is 32 bytes');
  const digest = createHash('sha256').update(TRANSPORT_REPORT_DOMAIN).update(manifestBytes).digest();
  const out = new Uint8Array(64);
  out.set(nonce, 0);
  out.set(digest, 32);
  return out;
}

/**
 * `GET /attestation`'s report data: SHA-512(`venue/attestation/v1` ‖ caller bytes). The caller
 * chooses the input, never the quoted bytes, so the route cannot be made to quote a transport
 * manifest binding someone else's TLS key (DESIGN.md section 8).
 */
export function attestationReportData(callerData: Uint8Array): Uint8Array {
  if (callerData.length > ATTESTATION_CALLER_DATA_MAX_BYTES)
    throw new RangeError(`at most ${ATTESTATION_CALLER_DATA_MAX_BYTES} bytes of caller data`);
  return new Uint8Array(createHash('sha512').update(ATTESTATION_REPORT_DOMAIN).update(callerData).digest());
}

/** The digest a runtime event extends RTMR3 with: SHA-384(type u32 LE ‖ ":" ‖ event ‖ ":" ‖ payload). */
export function runtimeEventDigest(eventType: number, event: string, payload: Uint8Array): Uint8Array {
  const type = Buffer.alloc(4);
  type.writeUInt32LE(eventType >>> 0, 0);
  return createHash('sha384')
    .update(type)
    .update(':')
    .update(event, 'utf8')
    .update(':')
    .update(payload)
    .digest();
}

/** Replays a register: it starts at 48 zero bytes and becomes SHA-384(mr ‖ d) for each digest. */
export function replayRtmr(digests: Iterable<Uint8Array>): Uint8Array {
  let mr: Uint8Array = new Uint8Array(RTMR_BYTES);
  for (const d of digests) {
    if (d.length !== RTMR_BYTES) throw new RangeError('an RTMR digest is 48 bytes');
    mr = createHash('sha384').update(mr).update(d).digest();
  }
  return mr;
}

/** SHA-256 of the ordered 32-byte TEE keys (the on-chain signer set), hex. */
export function signerSetSha256(keys: readonly Uint8Array[]): string {
  const h = createHash('sha256');
  for (const k of keys) {
    if (k.length !== 32) throw new RangeError('a TEE key is 32 bytes');
    h.update(k);
  }
  return h.digest('hex');
}
