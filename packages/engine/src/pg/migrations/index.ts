/**
 * Every schema version, in order (versions 1, 2, 3, … with no gaps). Append only: a released
 * migration is never edited.
 */
import { ACCOUNTS_MIGRATION } from './001-accounts.js';

export interface Migration {
  version: number;
  /** Short and unique, for `schema_migrations.name`. */
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [ACCOUNTS_MIGRATION];
