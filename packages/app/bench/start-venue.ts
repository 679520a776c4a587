/** What the app's benchmarks share: `nightjar start` in its own process, timed, and the medians. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const BIN = fileURLToPath(new URL('../../cli/bin/nightjar.mjs', import.meta.url));

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
export const fmt = (xs: number[]) => `${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(', ')})`;

export interface Ready {
  base_url: string;
  ledger_url: string;
  ledger_dev_secret?: string;
  compose_hash: string;
  platform_root: string;
  app_url: string;
  admin: { api_key: string; api_secret: string; passphrase: string };
}

export interface Venue {
  dir: string;
  proc: ChildProcess;
  ready: Ready;
  spawnedAt: number;
  readyAt: number;
}

/** `nightjar start` with the app (and `extra` flags), timed from spawn until ready.json names the app. */
export async function startVenue(extra: readonly string[] = []): Promise<Venue> {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-app-bench-'));
  const spawnedAt = performance.now();
  const proc = spawn(
    process.execPath,
    [BIN, 'start', '--port', '0', '--app-port', '0', '--data-dir', dir, ...extra],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const file = join(dir, 'ready.json');
  // ready.json is written once, when venue and app both answer; a 5 ms poll is the clock's grain.
  while (!existsSync(file)) {
    if (proc.exitCode !== null) throw new Error('nightjar start exited early');
    await delay(5);
  }
  const readyAt = performance.now();
  return { dir, proc, ready: JSON.parse(readFileSync(file, 'utf8')) as Ready, spawnedAt, readyAt };
}

export async function stopVenue(v: Venue): Promise<void> {
  if (v.proc.exitCode === null) {
    const exited = new Promise((r) => v.proc.once('exit', r));
    v.proc.kill('SIGINT');
    await exited;
  }
  rmSync(v.dir, { recursive: true, force: true });
}

/** The app's local JSON API with the bot token of `v`'s data dir. */
export function appApi(v: Venue) {
  const origin = new URL(v.ready.app_url).origin;
  const token = readFileSync(join(v.dir, 'app', 'api-token'), 'utf8').trim();
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}/api/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return { origin, token, call };
}

/**
 * Replaces the section under `## {heading}` of a benchmark doc (up to the next `## `) with `body`,
 * or appends it.
 */
export function writeSection(file: string, heading: string, body: string): string {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const section = `## ${heading}\n\n${body.trim()}\n`;
  const start = text.indexOf(`## ${heading}\n`);
  if (start < 0) return `${text.trimEnd()}\n\n${section}`;
  const next = text.indexOf('\n## ', start + 3);
  return `${text.slice(0, start)}${section}${next < 0 ? '' : text.slice(next)}`;
}
