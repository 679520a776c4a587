/**
 * The check one engine runs on a peer's settlement-key evidence (`GET /attestation/settlement-key`)
 * before it puts the peer's key in the ledger's signer set, with the shared checks a client runs
 * on an engine (`@nightjar/protocol/attestation-checks`):
 *
 * - the quote carries this engine's fresh nonce, chains to the pinned root, verifies with dcap-qvl,
 *   TCB UpToDate;
 * - the quoted report data is nonce ‖ SHA-256(`nightjar/settlement-key/v1` ‖ the key the engines
 *   table names), and the evidence names that same key: the quote binds the row's key;
 * - the event log is well formed, replays to RTMR3, and has exactly one compose-hash event, equal
 *   to this engine's own compose hash (the engines of one venue run one release).
 */
import type { Collateral } from '@phala/dcap-qvl';
import { parseAddress, settlementKeyReportData, type SettlementKeyEvidence } from '@nightjar/protocol';
import { checkEventLog, checkQuote } from '@nightjar/protocol/attestation-checks';

export interface SettlementKeyCheck {
  evidence: SettlementKeyEvidence;
  /** The nonce this engine sent (32 bytes). */
  nonce: Uint8Array;
  /** The key the engines table names for the peer (Base58). */
  teeKey: string;
  /** The pinned platform root (DER). */
  rootCaDer: Uint8Array;
  /** This engine's own compose hash (64 hex). */
  composeHash: string;
  /** This engine's own collateral for the quote (a PCCS): used instead of the peer's. */
  collateral?: Collateral;
  nowMs: number;
}

/** Throws (an `AttestationCheckError` or an `Error`) saying why the key is not a genuine engine's. */
export function checkSettlementKeyEvidence(c: SettlementKeyCheck): void {
  const key = parseAddress(c.teeKey);
  if (!key) throw new Error('the engines table names a key that is not a Base58 address of 32 bytes');
  if (c.evidence.tee_key !== c.teeKey) throw new Error('the peer attests another settlement key');
  const { td } = checkQuote({
    quote: Buffer.from(c.evidence.quote, 'hex'),
    reportDataHex: c.evidence.report_data,
    nonce: c.nonce,
    collateral: c.collateral ?? (c.evidence.collateral as Collateral | undefined),
    rootCaDer: c.rootCaDer,
    nowMs: c.nowMs,
  });
  if (!Buffer.from(settlementKeyReportData(c.nonce, key)).equals(Buffer.from(td.reportData)))
    throw new Error('the quote does not bind the settlement key the engines table names');
  checkEventLog({ eventLog: c.evidence.event_log, rtmr3: td.rtMr3, composeHash: c.composeHash });
}
