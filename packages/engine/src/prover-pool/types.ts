/**
 * The prover pool's seams (DESIGN 11): remote `nightjar prover` workers that the engine attests
 * before it seals them any witness, and a PostgreSQL job queue between the two. Registration and
 * attestation (worker-evidence, registry) fill {@link AttestedWorkers}; the queue and the pool
 * prover read it when they seal a job.
 */

/** A worker whose attestation passed checks (a)–(d) this boot. */
export interface AttestedWorker {
  /** Hex of SHA-256(sealing public key), first 16 bytes: how the queue names the worker. */
  workerId: string;
  /** X25519, fresh at each worker boot, bound into its quote: jobs are sealed to it. */
  sealingPublicKey: Uint8Array;
  /** The compose hash its event log replayed to (one of the pinned prover releases). */
  composeHash: string;
  attestedAtMs: number;
}

/** The workers jobs may be sealed to now (a worker drops out when its registration lapses). */
export interface AttestedWorkers {
  list(): readonly AttestedWorker[];
  get(workerId: string): AttestedWorker | undefined;
  /**
   * A worker whose returned proof failed verification: no job is sealed to it any more this boot
   * (an attested but faulty or dishonest process must not burn every job's attempts).
   */
  drop?(workerId: string): void;
}

/** What a worker learns when its registration is accepted. */
export interface WorkerRegistration {
  workerId: string;
  /** The engine's X25519 result key for this boot: results are sealed to it (they hold outputs). */
  enginePublicKey: Uint8Array;
  /** The engine's id in the queue: the worker completes jobs under it. */
  engineId: string;
  /** `postgres://…` the job queue lives in. */
  queueUrl: string;
  /** The registration lapses after this long unless the worker registers again. */
  ttlMs: number;
}

/** How a worker registers (over the engine's verified transport); implemented by the registration client. */
export type RegisterWorker = () => Promise<WorkerRegistration>;
