/** What the scale-out benchmarks share: where and when a run was made, and a fresh database each. */
import { cpus, loadavg } from 'node:os';
import { openPgPool } from '../src/pg/pool.js';

/** The run's header fields (the machine, Node, the load average before and now). */
export function runHeader(loadAverageBefore: number) {
  return {
    run: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    node: process.version,
    load_average_before: loadAverageBefore,
    load_average_after: loadavg()[0],
  };
}

/** Creates database `name` on the server of `url`; answers its URL (a venue of its own each). */
export async function createDatabase(url: string, name: string): Promise<string> {
  const pool = openPgPool(url, { max: 1 });
  try {
    await pool.query(`CREATE DATABASE ${name}`);
  } finally {
    await pool.end();
  }
  return url.replace(/\/[^/]*$/, `/${name}`);
}
