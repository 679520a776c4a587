/**
 * Version 3: the engines directory (DESIGN 11). One row per engine of the venue: where clients
 * reach it, the markets it is the single writer of, its settlement (TEE) key, its boot session and
 * its heartbeat. A row outlives its engine (a dead engine's markets stay listed at its URL); it
 * leaves when the same engine comes back at its URL with a new key, or when another engine takes
 * over all its markets once its heartbeat is long stale.
 */
import type { Migration } from './migration.js';

export const ENGINES_MIGRATION: Migration = {
  version: 3,
  name: 'engines',
  sql: `CREATE TABLE engines (
    engine_id text PRIMARY KEY,
    base_url text NOT NULL UNIQUE,
    symbols text[] NOT NULL,
    tee_key text NOT NULL,
    boot_session text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now()
  )`,
};
