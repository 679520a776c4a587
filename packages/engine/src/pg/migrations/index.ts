/**
 * Every schema version, in order (versions 1, 2, 3, … with no gaps). Append only: a released
 * migration is never edited.
 */
import type { Migration } from './migration.js';
import { proverJobsMigration } from './002-prover-jobs.js';

export type { Migration } from './migration.js';

// Version 1 (accounts) is the store engineer's; the lead merges the list in order.
export const MIGRATIONS: readonly Migration[] = [proverJobsMigration];
