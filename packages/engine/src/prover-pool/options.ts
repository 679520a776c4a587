/** `EngineOptions.proverPool`: the prover pool's registration and queue settings (DESIGN 11). */
import type { Collateral } from '@phala/dcap-qvl';
import type { SnarkjsVerificationKey } from '@nightjar/crypto';

export interface ProverPoolOptions {
  /** `postgres://…` where the job queue lives (told to each admitted worker). */
  queueUrl: string;
  /** The prover releases pinned in this release's manifest; default `[computeProverComposeHash()]`. */
  composeHashes?: readonly string[];
  /** The platform root workers' quotes must chain to (DER); default this engine's simulated root. */
  rootCa?: Uint8Array;
  /** A worker's registration lapses after this long unless renewed (default 5 minutes). */
  registrationTtlMs?: number;
  /** Machines registered at once (default 256). */
  maxWorkers?: number;
  /** The engine's own DCAP collateral source for workers' quotes (needed for real CVMs). */
  fetchCollateral?: (quote: Uint8Array) => Promise<Collateral>;
  /** A claim's lease without heartbeat (default 30,000 ms). */
  leaseMs?: number;
  /** A job not done by then fails as a proof failure does (default 120,000 ms). */
  deadlineMs?: number;
  /** Backstop poll for a lost notification (default 2,000 ms). */
  pollMs?: number;
  /** Proofs the settlement pipeline hands the pool at once (default 32). */
  concurrency?: number;
  /** The VALID_LOCK verification key (default: the committed one, dev mode only). */
  validLockKey?: SnarkjsVerificationKey;
}
