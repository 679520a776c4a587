/**
 * The app as a user runs it: `nightjar start` (a venue process with the trading app beside it, in
 * its own process) and what a bot or a browser needs from it. For tests that start a whole venue;
 * they must be named `*.proofs.test.ts` (they prove for real). Cheaper tests use the app's
 * `test/app-harness.ts`.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST_SLOTS, startVenueProcess, stopVenueProcess } from './cli-process.js';

export interface AppProcess {
  /** The venue's data directory (ready.json, app/api-token). */
  dir: string;
  /** The `nightjar start` process (the app is its child). */
  venue: ChildProcess;
  /** ready.json's app_url: a one-time login URL. */
  appUrl: string;
  /** `http://127.0.0.1:P` */
  origin: string;
  port: number;
  /** The bot API token (`<dir>/app/api-token`). */
  apiToken: string;
  /** Stops the venue and the app (SIGINT, as an operator does) and removes the directory. */
  close(): Promise<void>;
}

/**
 * Starts `nightjar start --port 0 --app-port 0` with 200 ms slots (unless `extra` says otherwise)
 * in a new temporary directory and resolves once ready.json (with `app_url`) is written.
 */
export async function startAppProcess(extra: readonly string[] = FAST_SLOTS): Promise<AppProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-app-proc-'));
  const venue = await startVenueProcess(dir, extra, { app: true });
  const ready = JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8')) as { app_url?: string };
  if (!ready.app_url) throw new Error('ready.json has no app_url');
  const url = new URL(ready.app_url);
  return {
    dir,
    venue,
    appUrl: ready.app_url,
    origin: url.origin,
    port: Number(url.port),
    apiToken: readFileSync(join(dir, 'app', 'api-token'), 'utf8').trim(),
    async close() {
      await stopVenueProcess(venue);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
