/**
 * Start-up: the prover pool (`EngineOptions.proverPool`, CLI `nightjar start --prover-pool URL`).
 * The engine's id in the queue is its settlement key's address (stable per data directory); its
 * result key is fresh per boot, so a result sealed to an earlier boot opens for nobody, and that
 * boot's jobs are purged. The registration routes hand workers `registration` (with their own id
 * and ttl).
 */
import { randomUUID } from 'node:crypto';
import { Groth16Verifier, type X25519KeyPair } from '@nightjar/crypto';
import { loadVerificationKey } from '@nightjar/circuits';
import { migrate } from '../pg/migrate.js';
import type { Migration } from '../pg/migrations/index.js';
import { openPgPool } from '../pg/pool.js';
import type { MatchProver, MatchVerifier } from '../settlement/match-prover.js';
import { JobQueue, resultChannel } from './job-queue.js';
import { PoolMatchProver } from './pool-match-prover.js';
import { listenQueue } from './queue-listener.js';
import type { ProverPoolOptions } from './options.js';
import type { AttestedWorkers, WorkerRegistration } from './types.js';

export type { ProverPoolOptions };

export interface ProverPool {
  prover: PoolMatchProver;
  /** What a worker's registration carries besides its own id and ttl. */
  registration: Pick<WorkerRegistration, 'engineId' | 'enginePublicKey' | 'queueUrl'>;
}

const NO_WORKERS: AttestedWorkers = { list: () => [], get: () => undefined };

async function lockVerifier(o: ProverPoolOptions, dev: boolean): Promise<MatchVerifier> {
  const key = o.validLockKey ?? (dev ? await loadVerificationKey('valid_lock') : undefined);
  if (!key) throw new Error('proverPool needs validLockKey to check lock proofs');
  const verifier = await Groth16Verifier.create(key);
  return { verify: async (proof, signals) => verifier.verify(proof, signals) };
}

export async function startProverPool(
  o: ProverPoolOptions,
  d: {
    engineId: string;
    /** The workers jobs are sealed to (the registration's registry); none: every proof in process. */
    workers?: AttestedWorkers;
    /** The per-boot key results are sealed to (the registration tells workers its public half). */
    resultKey: X25519KeyPair;
    fallback: MatchProver;
    verifyMatch: MatchVerifier;
    dev: boolean;
    /** The schema list (tests; default the repository's). */
    migrations?: readonly Migration[];
  },
): Promise<ProverPool> {
  const pool = openPgPool(o.queueUrl);
  try {
    await migrate(pool, d.migrations);
    const bootId = randomUUID();
    const queue = new JobQueue(pool, o.leaseMs === undefined ? {} : { leaseMs: o.leaseMs });
    await queue.purgeOtherBoots(d.engineId, bootId);
    const { resultKey } = d;
    const prover = new PoolMatchProver({
      queue,
      engineId: d.engineId,
      bootId,
      resultKey,
      workers: d.workers ?? NO_WORKERS,
      fallback: d.fallback,
      verifyMatch: d.verifyMatch,
      verifyLock: await lockVerifier(o, d.dev),
      listen: (onWake) => listenQueue(o.queueUrl, resultChannel(d.engineId), onWake),
      onClose: () => pool.end(),
      ...(o.deadlineMs === undefined ? {} : { deadlineMs: o.deadlineMs }),
      ...(o.pollMs === undefined ? {} : { pollMs: o.pollMs }),
    });
    return {
      prover,
      registration: { engineId: d.engineId, enginePublicKey: resultKey.publicKey, queueUrl: o.queueUrl },
    };
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
}
