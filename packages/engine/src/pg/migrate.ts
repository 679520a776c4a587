/**
 * Versioned schema migrations for the PostgreSQL store, kept in the repository
 * (`migrations/`, one module per version, listed in order in `migrations/index.ts`; a version is
 * never edited once released, a change is a new version). Engines booting together against one
 * database migrate under a transaction-scoped advisory lock, so each version runs exactly once.
 */
import { inTransaction, type PgPool } from './pool.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

/** The advisory lock key migrations hold ("nightjar" in ASCII, as a 64-bit integer). */
const MIGRATION_LOCK = 0x6e696768746a6172n;

export interface MigrationReport {
  /** Versions this call applied (empty when the schema was already current). */
  applied: number[];
  /** The schema's version afterwards. */
  version: number;
}

export async function migrate(
  pool: PgPool,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  checkOrder(migrations);
  return inTransaction(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    await c.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await c.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    const newest = migrations.at(-1)?.version ?? 0;
    const unknown = [...done].filter((v) => v > newest);
    if (unknown.length > 0)
      throw new Error(
        `the database's schema is newer than this release (version ${Math.max(...unknown)}, this release knows ${newest}): run the newer release`,
      );
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await c.query(m.sql);
      await c.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return { applied, version: newest };
  });
}

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
}
