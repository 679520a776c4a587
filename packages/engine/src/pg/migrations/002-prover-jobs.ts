/**
 * Version 2: the prover pool's job queue (DESIGN 11). A job's witness is stored sealed (never in
 * the clear) with its content key sealed to each attested worker (`sealed_keys`: worker id →
 * sealed key); a worker without an entry never claims it. `excluded` lists workers whose result
 * failed verification for this job.
 */
import type { Migration } from './migration.js';

export const proverJobsMigration: Migration = {
  version: 2,
  name: 'prover-jobs',
  sql: `
CREATE TABLE prover_jobs (
  id bigserial PRIMARY KEY,
  engine_id text NOT NULL,
  boot_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('match', 'lock')),
  sealed_payload bytea NOT NULL,
  sealed_keys jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'claimed', 'done')),
  worker_id text,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  excluded jsonb NOT NULL DEFAULT '[]'::jsonb,
  sealed_result bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  claimed_at timestamptz,
  completed_at timestamptz
);
CREATE INDEX prover_jobs_open ON prover_jobs (status, lease_until, id) WHERE status <> 'done';
CREATE INDEX prover_jobs_engine ON prover_jobs (engine_id, boot_id);
`,
};
