/**
 * Check (b): the manifest bytes reproduce the quote's report data (nonce ‖ SHA-256(domain ‖
 * manifest)), say what the JSON manifest says, and attest the TLS key on this very socket.
 */
import {
  decodeTransportManifest,
  transportReportData,
  TRANSPORT_MODE_ENGINE_TLS,
  TRANSPORT_PROTOCOL_VERSION,
  type TransportManifest,
} from '@nightjar/protocol';
import {
  NIGHTJAR_ERROR__ATTESTATION_MANIFEST,
  NIGHTJAR_ERROR__ATTESTATION_SPKI,
  NightjarError,
} from '../errors/index.js';

export interface CheckManifestParameters {
  manifest: TransportManifest;
  manifestBytesHex: string;
  nonce: Uint8Array;
  /** The quote's 64 bytes of report data (already checked to start with the nonce). */
  quoteReportData: Uint8Array;
  /** SHA-256 of the SPKI of the certificate on the socket the evidence came over. */
  socketSpkiSha256: string;
}

export type CheckManifestReturnType = TransportManifest;

export function checkManifest(params: CheckManifestParameters): CheckManifestReturnType {
  const bytes = Buffer.from(params.manifestBytesHex, 'hex');
  let decoded: TransportManifest;
  try {
    decoded = decodeTransportManifest(bytes);
  } catch (err) {
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_MANIFEST, {
      detail: `the manifest bytes do not decode: ${(err as Error).message}`,
    });
  }
  const expected = Buffer.from(transportReportData(params.nonce, bytes));
  if (!expected.equals(Buffer.from(params.quoteReportData)))
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_MANIFEST, {
      detail: 'the manifest bytes do not reproduce the quote report data',
    });
  for (const key of Object.keys(decoded) as (keyof TransportManifest)[]) {
    if (String(decoded[key]).toLowerCase() !== String(params.manifest[key]).toLowerCase())
      throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_MANIFEST, {
        detail: `the manifest's ${key} is not what its bytes say`,
      });
  }
  if (
    decoded.protocol_version !== TRANSPORT_PROTOCOL_VERSION ||
    decoded.transport_mode !== TRANSPORT_MODE_ENGINE_TLS
  )
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_MANIFEST, {
      detail: 'unsupported manifest protocol version or transport mode',
    });
  if (decoded.tls_spki_sha256 !== params.socketSpkiSha256.toLowerCase())
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_SPKI, {
      detail: 'the attested TLS key is not the one on this connection',
    });
  return decoded;
}
