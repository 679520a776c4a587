/**
 * Checks (a) to (c) of the spec's Authentication rule 15 on fetched evidence, in order, with the
 * pinned platform measurements beside the compose hash of (c); check (d) needs `/info` and the
 * ledger and is `checkIdentity`. Pure apart from the clock, so that tests can hand it forged
 * evidence.
 */
import type { Collateral, TDReport10 } from '@phala/dcap-qvl';
import type { TransportAttestationResponse, TransportManifest } from '@nightjar/protocol';
import { checkEventLog } from './check-event-log.js';
import { checkManifest } from './check-manifest.js';
import {
  checkMeasurements,
  type PinnedMeasurements,
  type PlatformMeasurements,
} from './check-measurements.js';
import { checkQuote } from './check-quote.js';

export interface CheckTransportEvidenceParameters {
  evidence: TransportAttestationResponse;
  /** The nonce this client sent for this evidence. */
  nonce: Uint8Array;
  /** SHA-256 of the SPKI of the certificate on the socket the evidence came over. */
  socketSpkiSha256: string;
  /** The pinned platform root (DER): the simulated root from ready.json, or Intel's. */
  rootCaDer: Uint8Array;
  /** The pinned release's compose hash (64 hex). */
  composeHash: string;
  /** The client's own collateral (from its PCCS or fetcher): used instead of the evidence's. */
  collateral?: Collateral;
  /** Pinned MRTD and RTMR0–2 (any subset), checked beside the compose hash. */
  measurements?: PinnedMeasurements;
  nowMs?: number;
}

export interface CheckTransportEvidenceReturnType {
  manifest: TransportManifest;
  td: TDReport10;
  tcbStatus: 'UpToDate';
  composeHash: string;
  /** The quote's MRTD and RTMR0–2 (what a client pins on a real CVM). */
  measurements: PlatformMeasurements;
}

export function checkTransportEvidence(
  params: CheckTransportEvidenceParameters,
): CheckTransportEvidenceReturnType {
  const { evidence } = params;
  const quote = Buffer.from(evidence.quote, 'hex');
  // (a)
  const { td, tcbStatus } = checkQuote({
    quote,
    reportDataHex: evidence.report_data,
    nonce: params.nonce,
    collateral: params.collateral ?? evidence.collateral,
    rootCaDer: params.rootCaDer,
    nowMs: params.nowMs ?? Date.now(),
  });
  // (b)
  const manifest = checkManifest({
    manifest: evidence.manifest,
    manifestBytesHex: evidence.manifest_bytes,
    nonce: params.nonce,
    quoteReportData: td.reportData,
    socketSpkiSha256: params.socketSpkiSha256,
  });
  // (c)
  const { composeHash } = checkEventLog({
    eventLog: evidence.event_log,
    rtmr3: td.rtMr3,
    composeHash: params.composeHash,
  });
  const measurements = checkMeasurements({ td, pinned: params.measurements });
  return { manifest, td, tcbStatus, composeHash, measurements };
}
