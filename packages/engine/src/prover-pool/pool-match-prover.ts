/**
 * The prover pool behind the engine's prover seam (DESIGN 11): proofs go to remote `nightjar
 * prover` workers through the PostgreSQL job queue, sealed to the workers attested at enqueue time.
 * The engine trusts nothing a worker says but the proof bytes: it computes the public inputs and
 * outputs from the parameters it sent and verifies the proof against them before using it (VALID_
 * MATCH v2 with the engine's match verifier, VALID_LOCK with its key). With no worker attested,
 * the in-process prover it is given proves instead (documented fallback: a pool whose workers are
 * all gone slows down, it does not stop). A worker whose result fails verification is dropped from
 * the workers jobs are sealed to.
 */
import { validLockWitness, validMatchV2Witness } from '@nightjar/circuits';
import type { LockProofResult, ValidLockParams, ValidMatchV2Params } from '@nightjar/circuits';
import { validMatchV2PublicSignals } from '@nightjar/crypto';
import type { MatchProof, MatchProver, MatchVerifier } from '../settlement/match-prover.js';
import { RemoteJobs, type RemoteJobsOptions } from './remote-jobs.js';
import type { QueueListener } from './queue-listener.js';
import type { JobKind } from './job-queue.js';
import type { AttestedWorker, AttestedWorkers } from './types.js';

const PROOF_BYTES = 256;

export interface PoolMatchProverOptions extends RemoteJobsOptions {
  workers: AttestedWorkers;
  /** Proves when no worker is attested; closed with the pool prover. */
  fallback: MatchProver;
  verifyMatch: MatchVerifier;
  /** Checks VALID_LOCK proofs (public signals [use_tag, merkle_root, nullifier]). */
  verifyLock: MatchVerifier;
  /** Starts hearing this engine's completions: `onWake(jobId)` (no id: look at every job). */
  listen?: (onWake: (jobId: string | undefined) => void) => QueueListener;
  /** Called once at close, after the jobs are cancelled (the queue's pool). */
  onClose?: () => Promise<void>;
}

/** The proof bytes of a worker's result, when it has the right shape. */
function proofBytes(result: unknown): Uint8Array | undefined {
  const proof = (result as { proof?: unknown } | null)?.proof;
  return proof instanceof Uint8Array && proof.length === PROOF_BYTES ? proof : undefined;
}

export class PoolMatchProver implements MatchProver {
  readonly #o: PoolMatchProverOptions;
  readonly #jobs: RemoteJobs;
  readonly #listener: QueueListener | undefined;

  constructor(options: PoolMatchProverOptions) {
    this.#o = options;
    // A worker whose result fails verification gets no more jobs (it would burn their attempts).
    this.#jobs = new RemoteJobs({ ...options, onInvalidResult: (id) => options.workers.drop?.(id) });
    this.#listener = options.listen?.((jobId) => this.#jobs.wake(jobId));
  }

  /** Remote jobs awaited now. */
  get pending(): number {
    return this.#jobs.pending;
  }

  prove(params: ValidMatchV2Params, signal?: AbortSignal): Promise<MatchProof> {
    const workers = this.#o.workers.list();
    if (workers.length === 0) return this.#o.fallback.prove(params, signal);
    // What the proof must prove, from the engine's own parameters (throws as the prover would).
    const w = validMatchV2Witness(params);
    const publicSignals = validMatchV2PublicSignals(w.publicInputs);
    const made = (proof: Uint8Array) => ({
      proof,
      publicInputs: w.publicInputs,
      publicSignals,
      outputs: w.outputs,
    });
    return this.#remote('match', params, workers, signal, this.#o.verifyMatch, publicSignals, made);
  }

  proveLock(params: ValidLockParams, signal?: AbortSignal): Promise<LockProofResult> {
    const workers = this.#o.workers.list();
    if (workers.length === 0) return this.#o.fallback.proveLock(params, signal);
    const w = validLockWitness(params);
    const made = (proof: Uint8Array) => ({ proof, publicInputs: w.publicInputs, derived: w.derived });
    return this.#remote('lock', params, workers, signal, this.#o.verifyLock, w.publicInputs, made);
  }

  /** One remote job whose result is taken only if its proof verifies against `publicSignals`. */
  #remote<T>(
    kind: JobKind,
    params: unknown,
    workers: readonly AttestedWorker[],
    signal: AbortSignal | undefined,
    verifier: MatchVerifier,
    publicSignals: bigint[],
    made: (proof: Uint8Array) => T,
  ): Promise<T> {
    const accept = async (result: unknown) => {
      const proof = proofBytes(result);
      return proof && (await verifier.verify(proof, publicSignals)) ? made(proof) : undefined;
    };
    return this.#jobs.run({ kind, payload: params, workers, signal, accept });
  }

  /** Warms the fallback (remote workers warm themselves). */
  warm(): Promise<number | undefined> {
    return this.#o.fallback.warm?.() ?? Promise.resolve(undefined);
  }

  async close(): Promise<void> {
    this.#jobs.close();
    await this.#listener?.close();
    await this.#o.fallback.close();
    await this.#o.onClose?.();
  }
}
