/**
 * The engine's side of prover registration: it issues challenges, checks a worker's evidence
 * (a)–(d) and admits it to the registry, answering with what the worker needs (the engine's
 * per-boot X25519 result key, its id in the queue, the queue's URL, the registration's lifetime).
 * Cheap refusals (an unknown, expired or spent nonce) come before any quote is parsed.
 */
import type { Collateral } from '@phala/dcap-qvl';
import { generateX25519KeyPair, type X25519KeyPair } from '@nightjar/crypto';
import { VenueError, type ProverEvidenceBody, type ProverRegistrationResponse } from '@nightjar/protocol';
import { ProverChallenges } from './challenges.js';
import { DroppedWorkerError, ProverRegistry } from './registry.js';
import { checkedAs, verifyWorkerEvidence, WorkerRefusedError } from './verify-worker.js';
import { checkQuoteNonce } from '@nightjar/protocol/attestation-checks';

export interface ProverRegistrationOptions {
  /** The pinned platform root for workers (DER). */
  rootCaDer: Uint8Array;
  /** The pinned prover releases (64 hex each). */
  composeHashes: readonly string[];
  queueUrl: string;
  now: () => number;
  registrationTtlMs?: number;
  maxWorkers?: number;
  /**
   * The engine's own DCAP collateral source (a PCCS): always used when given, in preference to
   * what the worker sends (a real CVM sends none), as the SDK's `fetchCollateral` is.
   */
  fetchCollateral?: (quote: Uint8Array) => Promise<Collateral>;
}

export class ProverRegistration {
  readonly registry: ProverRegistry;
  readonly challenges: ProverChallenges;
  /** Results (which hold output witnesses) are sealed to this; the private key never leaves memory. */
  readonly resultKeys: X25519KeyPair = generateX25519KeyPair();
  /** The engine's id in the queue (its settlement key's address), set when settlement starts. */
  engineId = '';

  constructor(private readonly options: ProverRegistrationOptions) {
    if (options.composeHashes.length === 0) throw new RangeError('the prover pool pins no prover release');
    this.registry = new ProverRegistry({
      now: options.now,
      ...(options.registrationTtlMs !== undefined ? { ttlMs: options.registrationTtlMs } : {}),
      ...(options.maxWorkers !== undefined ? { maxWorkers: options.maxWorkers } : {}),
    });
    this.challenges = new ProverChallenges({ now: options.now });
  }

  challenge(): { nonce: string } {
    return { nonce: this.challenges.issue() };
  }

  /** Throws `WorkerRefusedError` naming the failed check; admits the worker otherwise. */
  async verify(evidence: ProverEvidenceBody): Promise<ProverRegistrationResponse> {
    if (!this.challenges.take(evidence.nonce))
      throw new WorkerRefusedError('a', 'the nonce was not issued by this engine, has expired or was used');
    const collateral = await this.ownCollateral(evidence);
    const verified = verifyWorkerEvidence({
      evidence,
      rootCaDer: this.options.rootCaDer,
      composeHashes: this.options.composeHashes,
      ...(collateral ? { collateral } : {}),
      nowMs: this.options.now(),
    });
    if (!this.registry.admit(verified.worker, verified.instanceIdSha256))
      throw new VenueError(1401, 'the prover registry is full');
    return {
      worker_id: verified.worker.workerId,
      engine_public_key: Buffer.from(this.resultKeys.publicKey).toString('hex'),
      engine_id: this.engineId,
      queue_url: this.options.queueUrl,
      ttl_ms: this.registry.ttlMs,
    };
  }

  /** The engine's own collateral, fetched only for a quote that parses and carries the nonce. */
  private async ownCollateral(evidence: ProverEvidenceBody): Promise<Collateral | undefined> {
    const fetch = this.options.fetchCollateral;
    if (!fetch) return undefined;
    const quote = Buffer.from(evidence.quote, 'hex');
    checkedAs('a', () =>
      checkQuoteNonce({
        quote,
        reportDataHex: evidence.report_data,
        nonce: Buffer.from(evidence.nonce, 'hex'),
      }),
    );
    try {
      return await fetch(quote);
    } catch (err) {
      // The engine's source is down, not the worker at fault: retryable, and nothing is admitted.
      throw new VenueError(5001, `the DCAP collateral could not be fetched: ${(err as Error).message}`);
    }
  }

  /** `POST /prover/register`: a refused worker gets 403 1150 with the check's letter and reason. */
  async register(evidence: ProverEvidenceBody): Promise<ProverRegistrationResponse> {
    try {
      return await this.verify(evidence);
    } catch (err) {
      if (err instanceof WorkerRefusedError || err instanceof DroppedWorkerError)
        throw new VenueError(1150, err.message);
      throw err;
    }
  }
}
