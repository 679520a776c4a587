/**
 * The engine's attestation: the transport manifest of this boot (app and instance identity, boot
 * session, the TLS key's SPKI hash, the finalized on-chain signer set) and quotes binding it to a
 * caller's nonce (DESIGN.md section 8), or binding a caller's bytes under their own domain
 * (`/attestation`), so that no caller can have the transport layout quoted.
 */
import { createHash } from 'node:crypto';
import {
  attestationReportData,
  encodeTransportManifest,
  parseAddress,
  settlementKeyReportData,
  transportReportData,
  TRANSPORT_MODE_ENGINE_TLS,
  TRANSPORT_PROTOCOL_VERSION,
  VenueError,
  type AttestationResponse,
  type SettlementKeyEvidence,
  type TransportAttestationResponse,
  type TransportManifest,
} from '@nightjar/protocol';
import { eventLogBody, type AttestationPlatform, type PlatformKind } from './platform.js';

/** What `/info` and `/transparency` say of the engine's attested identity. */
export interface AttestationIdentity {
  platform: PlatformKind;
  app_id_sha256: string;
  instance_id_sha256: string;
  compose_hash: string;
}

export interface AttestationServiceOptions {
  platform: AttestationPlatform;
  bootSessionId: string;
  tlsSpkiSha256: string;
  /** The finalized on-chain signer set's hash, as the chain view last read it ('' before any). */
  signerSetSha256: () => string;
  /**
   * Re-reads the finalized signer set from the ledger. Called before each transport attestation,
   * so the manifest never lags a set change by a polling interval (a client compares it with the
   * set it reads from the ledger itself, check (d)).
   */
  refreshSignerSet?: () => Promise<void>;
}

const sha256Hex = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

export class AttestationService {
  readonly platform: AttestationPlatform;
  readonly identity: AttestationIdentity;

  constructor(private readonly options: AttestationServiceOptions) {
    this.platform = options.platform;
    this.identity = {
      platform: options.platform.kind,
      app_id_sha256: sha256Hex(options.platform.appId),
      instance_id_sha256: sha256Hex(options.platform.instanceId),
      compose_hash: options.platform.composeHash,
    };
  }

  manifest(): TransportManifest {
    const signerSet = this.options.signerSetSha256();
    if (!/^[0-9a-f]{64}$/.test(signerSet))
      throw new VenueError(5001, 'the on-chain signer set is not known yet');
    return {
      protocol_version: TRANSPORT_PROTOCOL_VERSION,
      transport_mode: TRANSPORT_MODE_ENGINE_TLS,
      app_id_sha256: this.identity.app_id_sha256,
      instance_id_sha256: this.identity.instance_id_sha256,
      boot_session_id: this.options.bootSessionId,
      tls_spki_sha256: this.options.tlsSpkiSha256,
      signer_set_sha256: signerSet,
    };
  }

  /** `GET /transport-attestation`: the manifest bound to `nonce` (32 bytes) by a fresh quote. */
  async transportAttestation(nonce: Uint8Array): Promise<TransportAttestationResponse> {
    await this.options.refreshSignerSet?.();
    const manifest = this.manifest();
    const manifestBytes = encodeTransportManifest(manifest);
    const reportData = transportReportData(nonce, manifestBytes);
    const q = await this.platform.quote(reportData);
    return {
      manifest,
      manifest_bytes: Buffer.from(manifestBytes).toString('hex'),
      quote: Buffer.from(q.quote).toString('hex'),
      event_log: eventLogBody(q.eventLog),
      report_data: Buffer.from(reportData).toString('hex'),
      ...(q.collateral ? { collateral: q.collateral } : {}),
    };
  }

  /**
   * `GET /attestation/settlement-key`: the settlement key `teeKey` (Base58) bound to `nonce` by a
   * quote, so that a peer engine checks the key is a genuine engine's before registering it.
   */
  async settlementKeyAttestation(nonce: Uint8Array, teeKey: string): Promise<SettlementKeyEvidence> {
    const key = parseAddress(teeKey);
    if (!key) throw new RangeError('the settlement key is not a Base58 address of 32 bytes');
    const reportData = settlementKeyReportData(nonce, key);
    const q = await this.platform.quote(reportData);
    return {
      tee_key: teeKey,
      quote: Buffer.from(q.quote).toString('hex'),
      event_log: eventLogBody(q.eventLog),
      report_data: Buffer.from(reportData).toString('hex'),
      ...(q.collateral ? { collateral: q.collateral } : {}),
    };
  }

  /**
   * `GET /attestation`: a quote over SHA-512(`venue/attestation/v1` ‖ callerData), never over the
   * caller's bytes themselves: those could be a transport report data for a man in the middle's
   * manifest (DESIGN.md section 8).
   */
  async attestation(callerData: Uint8Array): Promise<AttestationResponse> {
    const reportData = attestationReportData(callerData);
    const q = await this.platform.quote(reportData);
    return {
      platform: this.identity.platform,
      quote: Buffer.from(q.quote).toString('hex'),
      event_log: eventLogBody(q.eventLog),
      caller_data: Buffer.from(callerData).toString('hex'),
      report_data: Buffer.from(reportData).toString('hex'),
      app_id: this.platform.appId,
      instance_id: this.platform.instanceId,
      compose_hash: this.platform.composeHash,
      ...(q.collateral ? { collateral: q.collateral } : {}),
    };
  }
}
