/**
 * The engine's PostgreSQL connections (`--store postgres://…`): one `pg` pool per process. Only the
 * store modules under `pg/` and the PostgreSQL implementations beside them issue SQL (DESIGN 11);
 * everything else goes through their interfaces.
 */
import pg from 'pg';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

export interface PgPoolOptions {
  /** Connections at most (default 10). */
  max?: number;
  /** A new connection waits this long for the server (default 2,000 ms): an outage is seen fast. */
  connectTimeoutMs?: number;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export function openPgPool(url: string, options: PgPoolOptions = {}): PgPool {
  if (!isPostgresUrl(url)) throw new Error('a PostgreSQL store URL starts with postgres://');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2_000,
    // An idle connection the server dropped (a restart) is replaced on next use, not reported.
    idleTimeoutMillis: 10_000,
  });
  // A pooled idle connection that errors (the server went away) must not crash the process:
  // the next query fails with the error instead, and callers answer 503 5001.
  pool.on('error', () => {});
  return pool;
}

/** Runs `fn` in one transaction on one connection; rolls back on any throw. */
export async function inTransaction<T>(pool: PgPool, fn: (c: PgClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const r = await fn(c);
    await c.query('COMMIT');
    return r;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}
