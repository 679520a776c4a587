/**
 * The prover pool's job queue in PostgreSQL (DESIGN 11; table `prover_jobs`, migration 2). Every
 * SQL statement of the pool is here. Delivery is at least once: a claim holds a lease that the
 * worker's heartbeat extends, a lapsed lease is claimed again by another worker, and the first
 * completion of a job wins (the engine verifies it; a result that fails goes back to the queue with
 * that worker excluded). NOTIFY wakes the workers (`JOBS_CHANNEL`) and the job's engine
 * (`resultChannel`); a slow poll on each side covers a lost notification.
 */
import { createHash } from 'node:crypto';
import type { PgPool } from '../pg/pool.js';

export type JobKind = 'match' | 'lock';

/** Workers LISTEN here for new and requeued jobs. */
export const JOBS_CHANNEL = 'nightjar_prover_jobs';

/** The channel an engine hears its jobs' completions on (its id hashed: a valid identifier). */
export function resultChannel(engineId: string): string {
  return `nightjar_prover_done_${createHash('md5').update(engineId).digest('hex').slice(0, 16)}`;
}
const RESULT_CHANNEL_SQL = `'nightjar_prover_done_' || substr(md5(engine_id), 1, 16)`;

export interface NewJob {
  engineId: string;
  /** The engine's boot: a later boot purges the jobs of the earlier ones. */
  bootId: string;
  kind: JobKind;
  sealedPayload: Uint8Array;
  /** Worker id → the content key sealed to it (base64). */
  sealedKeys: Record<string, string>;
}

export interface ClaimedJob {
  id: string;
  engineId: string;
  kind: JobKind;
  sealedPayload: Uint8Array;
  /** The content key sealed to the claiming worker. */
  sealedKey: Uint8Array;
  attempts: number;
}

export interface JobState {
  status: 'queued' | 'claimed' | 'done';
  workerId: string | null;
  attempts: number;
  sealedResult: Uint8Array | null;
}

export interface Completion {
  /** false: the job was done already (or is gone), and this result was ignored. */
  accepted: boolean;
}

export interface JobQueueOptions {
  /** How long a claim holds a job without a heartbeat (default 30,000 ms). */
  leaseMs?: number;
}

export class JobQueue {
  readonly leaseMs: number;
  readonly #pool: PgPool;

  constructor(pool: PgPool, options: JobQueueOptions = {}) {
    this.#pool = pool;
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  async enqueue(job: NewJob): Promise<string> {
    const r = await this.#pool.query<{ id: string }>(
      `WITH j AS (
         INSERT INTO prover_jobs (engine_id, boot_id, kind, sealed_payload, sealed_keys)
         VALUES ($1, $2, $3, $4, $5) RETURNING id
       )
       SELECT j.id::text AS id, pg_notify($6, j.id::text) FROM j`,
      [
        job.engineId,
        job.bootId,
        job.kind,
        Buffer.from(job.sealedPayload),
        JSON.stringify(job.sealedKeys),
        JOBS_CHANNEL,
      ],
    );
    return r.rows[0]!.id;
  }

  /**
   * Up to `limit` jobs sealed to `workerId` (and not excluded for it) that are queued or whose
   * lease lapsed, each leased to it now; rows another claimer holds are skipped, not waited for.
   */
  async claim(workerId: string, limit = 1): Promise<ClaimedJob[]> {
    const r = await this.#pool.query<{
      id: string;
      engine_id: string;
      kind: JobKind;
      sealed_payload: Buffer;
      sealed_key: string;
      attempts: number;
    }>(
      `WITH picked AS (
         SELECT id FROM prover_jobs
         WHERE sealed_keys ? $1 AND NOT (excluded ? $1)
           AND (status = 'queued' OR (status = 'claimed' AND lease_until < now()))
         ORDER BY id LIMIT $2
         FOR UPDATE SKIP LOCKED
       )
       UPDATE prover_jobs j
       SET status = 'claimed', worker_id = $1, claimed_at = now(),
           lease_until = now() + $3 * interval '1 millisecond'
       FROM picked WHERE j.id = picked.id
       RETURNING j.id::text AS id, j.engine_id, j.kind, j.sealed_payload,
                 j.sealed_keys ->> $1 AS sealed_key, j.attempts`,
      [workerId, limit, this.leaseMs],
    );
    return r.rows.map((row) => ({
      id: row.id,
      engineId: row.engine_id,
      kind: row.kind,
      sealedPayload: new Uint8Array(row.sealed_payload),
      sealedKey: new Uint8Array(Buffer.from(row.sealed_key, 'base64')),
      attempts: row.attempts,
    }));
  }

  /** Extends the lease; false when this worker no longer holds the job (re-issued or done). */
  async heartbeat(jobId: string, workerId: string): Promise<boolean> {
    const r = await this.#pool.query(
      `UPDATE prover_jobs SET lease_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND worker_id = $2 AND status = 'claimed'`,
      [jobId, workerId, this.leaseMs],
    );
    return r.rowCount === 1;
  }

  /**
   * Stores a result and wakes the engine. The first completion wins: any later one (a worker whose
   * lapsed lease was re-issued, finishing anyway) is ignored. Any worker the job is sealed to may
   * complete it, lease or not: a proof is a proof, and the engine verifies it.
   */
  async complete(jobId: string, workerId: string, sealedResult: Uint8Array): Promise<Completion> {
    const r = await this.#pool.query(
      `WITH d AS (
         UPDATE prover_jobs
         SET status = 'done', worker_id = $2, sealed_result = $3, completed_at = now(), lease_until = NULL
         WHERE id = $1 AND status <> 'done' AND sealed_keys ? $2 AND NOT (excluded ? $2)
         RETURNING id, engine_id
       )
       SELECT pg_notify(${RESULT_CHANNEL_SQL}, id::text) FROM d`,
      [jobId, workerId, Buffer.from(sealedResult)],
    );
    return { accepted: r.rowCount === 1 };
  }

  async state(jobId: string): Promise<JobState | undefined> {
    const r = await this.#pool.query<{
      status: JobState['status'];
      worker_id: string | null;
      attempts: number;
      sealed_result: Buffer | null;
    }>('SELECT status, worker_id, attempts, sealed_result FROM prover_jobs WHERE id = $1', [jobId]);
    const row = r.rows[0];
    if (!row) return undefined;
    return {
      status: row.status,
      workerId: row.worker_id,
      attempts: row.attempts,
      sealedResult: row.sealed_result ? new Uint8Array(row.sealed_result) : null,
    };
  }

  /** A result that failed verification: the job is queued again, its worker excluded from it. */
  async requeue(jobId: string, workerId: string): Promise<number | undefined> {
    const r = await this.#pool.query<{ attempts: number }>(
      `WITH q AS (
         UPDATE prover_jobs
         SET status = 'queued', worker_id = NULL, lease_until = NULL, sealed_result = NULL,
             completed_at = NULL, attempts = attempts + 1, excluded = excluded || to_jsonb($2::text)
         WHERE id = $1 RETURNING id, attempts
       )
       SELECT attempts, pg_notify($3, id::text) FROM q`,
      [jobId, workerId, JOBS_CHANNEL],
    );
    return r.rows[0]?.attempts;
  }

  /** A worker that stops hands its unfinished job back at once (no lease to wait out). */
  async release(jobId: string, workerId: string): Promise<boolean> {
    const r = await this.#pool.query(
      `WITH q AS (
         UPDATE prover_jobs SET status = 'queued', worker_id = NULL, lease_until = NULL
         WHERE id = $1 AND worker_id = $2 AND status = 'claimed' RETURNING id
       )
       SELECT pg_notify($3, id::text) FROM q`,
      [jobId, workerId, JOBS_CHANNEL],
    );
    return r.rowCount === 1;
  }

  /** An aborted proof: the job goes unless a result is in already. */
  async cancel(jobId: string): Promise<boolean> {
    const r = await this.#pool.query(`DELETE FROM prover_jobs WHERE id = $1 AND status <> 'done'`, [jobId]);
    return r.rowCount === 1;
  }

  /** The engine took the job's result (or gave up on it): the row goes. */
  async remove(jobId: string): Promise<void> {
    await this.#pool.query('DELETE FROM prover_jobs WHERE id = $1', [jobId]);
  }

  /** A done job's queue delays (the benchmark): enqueue → claim, and completion → now. */
  async delays(jobId: string): Promise<{ toClaimMs: number; sinceDoneMs: number } | undefined> {
    const r = await this.#pool.query<{ to_claim: number; since_done: number }>(
      `SELECT extract(epoch FROM claimed_at - created_at) * 1000 AS to_claim,
              extract(epoch FROM clock_timestamp() - completed_at) * 1000 AS since_done
       FROM prover_jobs WHERE id = $1 AND status = 'done'`,
      [jobId],
    );
    const row = r.rows[0];
    return row && { toClaimMs: Number(row.to_claim), sinceDoneMs: Number(row.since_done) };
  }

  /** At boot: the jobs of this engine's earlier boots (nobody awaits them any more). */
  async purgeOtherBoots(engineId: string, bootId: string): Promise<number> {
    const r = await this.#pool.query('DELETE FROM prover_jobs WHERE engine_id = $1 AND boot_id <> $2', [
      engineId,
      bootId,
    ]);
    return r.rowCount ?? 0;
  }
}
