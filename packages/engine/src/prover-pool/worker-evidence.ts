/**
 * What a prover worker sends `POST /prover/register`: its manifest (version, SHA-256(app_id),
 * SHA-256(instance_id), boot session, X25519 sealing public key; 132 bytes, protocol's
 * `encodeProverManifest`) bound to the engine's nonce by a quote over `report_data` = nonce ‖
 * SHA-256(`nightjar/prover-attestation/v1` ‖ manifest), with the platform's event log and (where
 * it serves them) collateral. The worker's platform runs the prover release's compose hash.
 */
import { createHash } from 'node:crypto';
import {
  encodeProverManifest,
  PROVER_MANIFEST_VERSION,
  proverReportData,
  type ProverEvidenceBody,
} from '@nightjar/protocol';
import { eventLogBody, type AttestationPlatform } from '../attestation/platform.js';

export interface BuildWorkerEvidenceParameters {
  platform: AttestationPlatform;
  /** From the engine's `GET /prover/challenge`. */
  nonce: Uint8Array;
  bootSessionId: string;
  sealingPublicKey: Uint8Array;
}

const sha256Hex = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');

export async function buildWorkerEvidence(
  params: BuildWorkerEvidenceParameters,
): Promise<ProverEvidenceBody> {
  const sealingPublicKey = Buffer.from(params.sealingPublicKey).toString('hex');
  const manifestBytes = encodeProverManifest({
    version: PROVER_MANIFEST_VERSION,
    app_id_sha256: sha256Hex(params.platform.appId),
    instance_id_sha256: sha256Hex(params.platform.instanceId),
    boot_session_id: params.bootSessionId,
    sealing_public_key: sealingPublicKey,
  });
  const reportData = proverReportData(params.nonce, manifestBytes);
  const q = await params.platform.quote(reportData);
  return {
    nonce: Buffer.from(params.nonce).toString('hex'),
    manifest_bytes: Buffer.from(manifestBytes).toString('hex'),
    sealing_public_key: sealingPublicKey,
    boot_session_id: params.bootSessionId,
    quote: Buffer.from(q.quote).toString('hex'),
    event_log: eventLogBody(q.eventLog),
    report_data: Buffer.from(reportData).toString('hex'),
    ...(q.collateral ? { collateral: q.collateral } : {}),
  };
}
