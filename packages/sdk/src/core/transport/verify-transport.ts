/**
 * `verifyTransport`: proves that a pinned socket talks to the genuine engine. It sends a fresh
 * nonce over that socket, checks the evidence in the spec's order (a) to (d), and only then marks
 * the socket verified, which is what lets it carry a token or an order. There is no way to skip a
 * check: every parameter is a pinned value or a source of truth, none is a switch.
 */
import { randomBytes } from 'node:crypto';
import type { TransportManifest } from '@nightjar/protocol';
import { checkTransportEvidence } from './check-evidence.js';
import { checkIdentity, type SignerSetSource } from './check-identity.js';
import { checkQuoteNonce } from './check-quote.js';
import type { PinnedMeasurements, PlatformMeasurements } from './check-measurements.js';
import { fetchOwnCollateral, type CollateralFetcher } from './collateral.js';
import { fetchTransportEvidence } from './fetch-evidence.js';
import { markVerified, type PinnedSocket } from './pinned-socket.js';
import { NIGHTJAR_ERROR__ATTESTATION_EVIDENCE, NightjarError } from '../errors/index.js';

export interface VerifyTransportParameters {
  socket: PinnedSocket;
  /** The pinned platform root CA certificate (DER). */
  rootCaDer: Uint8Array;
  /** The pinned release compose hash (64 hex). */
  composeHash: string;
  /** Where the finalized on-chain signer set is read (a ledger client). */
  ledger: SignerSetSource;
  /**
   * The client's own DCAP collateral source (e.g. `pccsCollateralFetcher(url)`). When given it is
   * always used, in preference to collateral the venue serves; without it the venue's is used (a
   * real CVM serves none, so there a client needs one).
   */
  fetchCollateral?: CollateralFetcher;
  /** Pinned MRTD and RTMR0–2 (any subset): a mismatch fails with `ATTESTATION_MEASUREMENT`. */
  measurements?: PinnedMeasurements;
  now?: () => number;
}

export interface VerifyTransportReturnType {
  manifest: TransportManifest;
  bootSessionId: string;
  tlsSpkiSha256: string;
  composeHash: string;
  tcbStatus: 'UpToDate';
  /** The quote's MRTD and RTMR0–2, lower-case hex. */
  measurements: PlatformMeasurements;
  teeKeys: string[];
  signerSetSha256: string;
}

export async function verifyTransport(params: VerifyTransportParameters): Promise<VerifyTransportReturnType> {
  const { socket } = params;
  const nonce = randomBytes(32);
  const evidence = await fetchTransportEvidence({ socket, nonce });
  const quote = Buffer.from(evidence.quote, 'hex');
  // A foreign or stale quote is refused before it costs a request to the client's PCCS.
  checkQuoteNonce({ quote, reportDataHex: evidence.report_data, nonce });
  const collateral = await fetchOwnCollateral(params.fetchCollateral, quote);
  const checked = checkTransportEvidence({
    evidence,
    nonce,
    socketSpkiSha256: socket.spkiSha256,
    rootCaDer: params.rootCaDer,
    composeHash: params.composeHash,
    ...(collateral ? { collateral } : {}),
    ...(params.measurements ? { measurements: params.measurements } : {}),
    nowMs: (params.now ?? Date.now)(),
  });
  const info = await socket.publicGet<{ boot_session_id?: unknown }>('/info');
  const bootSessionId = info.status === 200 ? info.body?.boot_session_id : undefined;
  if (typeof bootSessionId !== 'string')
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_EVIDENCE, {
      detail: `/info answered ${info.status}`,
    });
  // (d)
  const identity = await checkIdentity({
    manifest: checked.manifest,
    infoBootSessionId: bootSessionId,
    ledger: params.ledger,
  });
  markVerified(socket);
  return {
    manifest: checked.manifest,
    bootSessionId: identity.bootSessionId,
    tlsSpkiSha256: socket.spkiSha256,
    composeHash: checked.composeHash,
    tcbStatus: checked.tcbStatus,
    measurements: checked.measurements,
    teeKeys: identity.teeKeys,
    signerSetSha256: identity.signerSetSha256,
  };
}
