/**
 * The engine's verification of a prover worker's evidence: checks (a)–(d) exactly as a client
 * verifies the engine, in that order, with the same shared implementations of (a) and (c)
 * (`@nightjar/protocol/attestation-checks`). The nonce's freshness (issued here, unexpired,
 * single use) is the first part of (a) and is the caller's (`ProverChallenges`), done before any
 * of this costs a signature check.
 *
 * (a) the quote carries the nonce, chains to the pinned root, verifies with dcap-qvl, TCB UpToDate;
 * (b) the manifest bytes reproduce the quote's report data, and the sealing key in them is the one
 *     the registration names (what jobs are sealed to: the worker's analogue of the TLS SPKI check);
 * (c) the event log is well formed, has one runtime compose-hash event, replays to RTMR3, and the
 *     compose hash is one of the pinned prover releases;
 * (d) the manifest's boot session is the one the registration names. A worker signs nothing on
 *     the ledger, so there is no signer set to compare (unlike a client's check (d) of an engine).
 */
import type { Collateral } from '@phala/dcap-qvl';
import {
  decodeProverManifest,
  PROVER_MANIFEST_VERSION,
  proverReportData,
  proverWorkerId,
  type ProverEvidenceBody,
  type ProverManifest,
} from '@nightjar/protocol';
import { AttestationCheckError, checkEventLog, checkQuote } from '@nightjar/protocol/attestation-checks';
import type { AttestedWorker } from './types.js';

export type WorkerCheck = 'a' | 'b' | 'c' | 'd';

/** A refused worker: which check failed and why (the 4xx the worker gets says both). */
export class WorkerRefusedError extends Error {
  override name = 'WorkerRefusedError';
  constructor(
    readonly check: WorkerCheck,
    readonly reason: string,
  ) {
    super(`attestation check (${check}) failed: ${reason}`);
  }
}

export interface VerifyWorkerEvidenceParameters {
  evidence: ProverEvidenceBody;
  /** The pinned platform root for workers (DER). */
  rootCaDer: Uint8Array;
  /** The prover releases the engine's release manifest pins (64 hex each). */
  composeHashes: readonly string[];
  /** The engine's own collateral for this quote (from its PCCS): used instead of the worker's. */
  collateral?: Collateral;
  nowMs: number;
}

/** Runs a shared check, rethrowing its refusal as this check's. */
export function checkedAs<T>(check: WorkerCheck, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof AttestationCheckError) throw new WorkerRefusedError(check, err.detail);
    throw err;
  }
}

function checkWorkerManifest(evidence: ProverEvidenceBody, quoteReportData: Uint8Array): ProverManifest {
  const bytes = Buffer.from(evidence.manifest_bytes, 'hex');
  let manifest: ProverManifest;
  try {
    manifest = decodeProverManifest(bytes);
  } catch (err) {
    throw new WorkerRefusedError('b', `the manifest bytes do not decode: ${(err as Error).message}`);
  }
  const expected = proverReportData(Buffer.from(evidence.nonce, 'hex'), bytes);
  if (!Buffer.from(expected).equals(Buffer.from(quoteReportData)))
    throw new WorkerRefusedError('b', 'the manifest bytes do not reproduce the quote report data');
  if (manifest.version !== PROVER_MANIFEST_VERSION)
    throw new WorkerRefusedError('b', `unsupported prover manifest version ${manifest.version}`);
  if (manifest.sealing_public_key !== evidence.sealing_public_key.toLowerCase())
    throw new WorkerRefusedError('b', 'the attested sealing key is not the one this registration names');
  return manifest;
}

export interface VerifiedWorker {
  worker: AttestedWorker;
  /** SHA-256 of the worker's platform instance id: the machine, across its boots. */
  instanceIdSha256: string;
  bootSessionId: string;
}

export function verifyWorkerEvidence(params: VerifyWorkerEvidenceParameters): VerifiedWorker {
  const { evidence } = params;
  // (a)
  const { td } = checkedAs('a', () =>
    checkQuote({
      quote: Buffer.from(evidence.quote, 'hex'),
      reportDataHex: evidence.report_data,
      nonce: Buffer.from(evidence.nonce, 'hex'),
      collateral: params.collateral ?? (evidence.collateral as Collateral | undefined),
      rootCaDer: params.rootCaDer,
      nowMs: params.nowMs,
    }),
  );
  // (b)
  const manifest = checkWorkerManifest(evidence, td.reportData);
  // (c)
  const { composeHash } = checkedAs('c', () =>
    checkEventLog({ eventLog: evidence.event_log, rtmr3: td.rtMr3, composeHash: params.composeHashes }),
  );
  // (d)
  if (manifest.boot_session_id !== evidence.boot_session_id.toLowerCase())
    throw new WorkerRefusedError('d', 'the attested boot session is not the one this registration names');
  const sealingPublicKey = new Uint8Array(Buffer.from(manifest.sealing_public_key, 'hex'));
  return {
    worker: {
      workerId: proverWorkerId(sealingPublicKey),
      sealingPublicKey,
      composeHash,
      attestedAtMs: params.nowMs,
    },
    instanceIdSha256: manifest.instance_id_sha256,
    bootSessionId: manifest.boot_session_id,
  };
}
