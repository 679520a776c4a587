/**
 * Every schema version, in order (versions 1, 2, 3, … with no gaps). Append only: a released
 * migration is never edited.
 */
import { ACCOUNTS_MIGRATION } from './001-accounts.js';
import { proverJobsMigration } from './002-prover-jobs.js';
import { ENGINES_MIGRATION } from './003-engines.js';
import type { Migration } from './migration.js';

export type { Migration };

export const MIGRATIONS: readonly Migration[] = [ACCOUNTS_MIGRATION, proverJobsMigration, ENGINES_MIGRATION];
