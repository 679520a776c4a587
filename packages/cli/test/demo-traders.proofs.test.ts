/**
 * `nightjar start --demo-traders 2`: the demo process trades as the dev admin, so a plain
 * `nightjar watch` (no login, no flags but the data dir) sees one of its orders fill.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/nightjar.mjs', import.meta.url));

/** Runs even when the test times out (its finally block then never runs): no venue outlives it. */
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

it('start --demo-traders: orders match and settle, and watch shows the fill', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-demo-'));
  const venue = spawn(
    process.execPath,
    [BIN, 'start', '--port', '0', '--data-dir', dir, '--demo-traders', '2'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(venue);
  const exited = new Promise((r) => venue.once('exit', r));
  try {
    let out = '';
    await new Promise<void>((resolve, reject) => {
      venue.stdout.on('data', (d) => {
        out += String(d);
        if (out.includes('venue ready at')) resolve();
      });
      venue.once('exit', () => reject(new Error(`venue exited early: ${out}`)));
    });
    const watch = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        [BIN, 'watch', '--channels', 'orders', '--until', 'fully_filled', '--timeout', '240', '--json'],
        { env: { ...process.env, NIGHTJAR_DATA_DIR: dir } },
        (err, stdout) => resolve({ code: err ? Number(err.code) : 0, stdout }),
      ),
    );
    expect(watch.code).toBe(0);
    const kinds = watch.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { event?: { kind?: string } }).event?.kind);
    expect(kinds).toContain('fully_filled');
    expect(out).toContain('FIRST fully_filled');
  } finally {
    venue.kill('SIGINT');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});
