/**
 * Every schema version, in order (versions 1, 2, 3, … with no gaps). Append only: a released
 * migration is never edited.
 */
import { ENGINES_MIGRATION } from './003-engines.js';
import type { Migration } from './migration.js';

export type { Migration };

/**
 * Branch i33-engines only: versions 1 (accounts) and 2 (prover jobs) belong to the store and queue
 * engineers; these empty stand-ins keep the list gap-free until their migrations are merged in
 * their places.
 */
const RESERVED = (version: number, name: string): Migration => ({ version, name, sql: 'SELECT 1' });

export const MIGRATIONS: readonly Migration[] = [
  RESERVED(1, 'reserved-accounts'),
  RESERVED(2, 'reserved-prover-jobs'),
  ENGINES_MIGRATION,
];
