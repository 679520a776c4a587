/** A real PostgreSQL with the prover-jobs schema, for the prover pool's tests. */
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { migrate } from '../../src/pg/migrate.js';
import { proverJobsMigration } from '../../src/pg/migrations/002-prover-jobs.js';
import { openPgPool, type PgPool } from '../../src/pg/pool.js';

// Version 1 (accounts) is another branch's: an empty stand-in keeps the list gap-free here.
export const TEST_MIGRATIONS = [
  { version: 1, name: 'accounts-stand-in', sql: 'SELECT 1' },
  proverJobsMigration,
];

export interface QueueDb {
  server: TestPostgres;
  pool: PgPool;
  close(): Promise<void>;
}

export async function startQueueDb(): Promise<QueueDb> {
  const server = await startPostgres();
  const pool = openPgPool(server.url);
  await migrate(pool, TEST_MIGRATIONS);
  return {
    server,
    pool,
    async close() {
      await pool.end();
      await server.close();
    },
  };
}

/** Polls `check` until it holds (or throws after `ms`). */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
