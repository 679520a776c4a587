import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { migrate } from '../src/pg/migrate.js';
import { MIGRATIONS } from '../src/pg/migrations/index.js';
import { openPgPool, type PgPool } from '../src/pg/pool.js';

const SAMPLE = [
  { version: 1, name: 'one', sql: 'CREATE TABLE sample_one (id integer PRIMARY KEY)' },
  { version: 2, name: 'two', sql: 'ALTER TABLE sample_one ADD COLUMN label text' },
];

describe('PostgreSQL migrations', () => {
  let server: TestPostgres;
  const pools: PgPool[] = [];
  const pool = () => {
    const p = openPgPool(server.url);
    pools.push(p);
    return p;
  };

  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await server?.close();
  });

  it('applies each version once, even from two engines booting together', async () => {
    const [a, b] = await Promise.all([migrate(pool(), SAMPLE), migrate(pool(), SAMPLE)]);
    expect([...a.applied, ...b.applied].sort()).toEqual([1, 2]);
    expect(a.version).toBe(2);
    const again = await migrate(pool(), SAMPLE);
    expect(again.applied).toEqual([]);
    const cols = await pool().query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'sample_one' ORDER BY column_name`,
    );
    expect(cols.rows.map((r: { column_name: string }) => r.column_name)).toEqual(['id', 'label']);
  });

  it('refuses a database whose schema is newer than this release', async () => {
    await expect(migrate(pool(), SAMPLE.slice(0, 1))).rejects.toThrow(/newer than this release/);
  });

  it('refuses a list with a gap, before touching the database', async () => {
    await expect(migrate(pool(), [SAMPLE[1]!])).rejects.toThrow(/expected 1/);
  });

  it("runs the repository's own migrations on an empty database", async () => {
    await pool().query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    const r = await migrate(pool());
    expect(r.version).toBe(MIGRATIONS.length);
  });
});
