/**
 * `npm start` → the first demo fill (issue 32; results in docs/benchmarks/app.md), as a newcomer
 * meets it: `npm start -- --demo-traders 4` spawned from the repository root with a fresh data dir
 * and free ports, timed from the spawn to its "venue ready at" line and to the demo's
 * "FIRST fully_filled" line. Idle, then with both cores busy: one child process per core spinning
 * for the whole run (each its own process), started before `npm start` and killed after it.
 *
 *   npx tsx packages/cli/bench/first-fill.bench.ts
 *   RUNS=3 (each case), CASES=idle,busy, BUSY_PER_CORE=1, TIMEOUT_S=900 (one run), WRITE=0 (print only)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOC = join(ROOT, 'docs/benchmarks/app.md');
const HEADING = '## npm start → first demo fill';
const RUNS = Number(process.env.RUNS ?? 3);
const CASES = (process.env.CASES ?? 'idle,busy').split(',') as ('idle' | 'busy')[];
const TIMEOUT_MS = Number(process.env.TIMEOUT_S ?? 900) * 1000;
const WRITE = process.env.WRITE !== '0';
/** Spinning processes per core in the busy case (4: the load of a machine shared with other work). */
const BUSY_PER_CORE = Number(process.env.BUSY_PER_CORE ?? 1);

interface Run {
  readyMs: number;
  firstFillMs: number;
}

/** One spinning child process per core: the machine as busy as it gets. */
function busyEveryCore(): ChildProcess[] {
  return Array.from({ length: availableParallelism() * BUSY_PER_CORE }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
}

/** Stops `npm start` and what it started (its own process group) the way Ctrl-C does. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGINT');
  const killed = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 30_000);
  await exited;
  clearTimeout(killed);
}

/** Spawns `npm start -- --demo-traders 4` and times its ready line and the first demo fill. */
async function oneRun(): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-first-fill-'));
  const args = ['start', '--', '--demo-traders', '4', '--data-dir', dir, '--port', '0', '--app-port', '0'];
  const started = performance.now();
  const child = spawn('npm', args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  try {
    return await new Promise<Run>((resolve, reject) => {
      let readyMs: number | undefined;
      const timer = setTimeout(
        () => reject(new Error(`no first fill in ${TIMEOUT_MS / 1000} s:\n${out.slice(-2000)}`)),
        TIMEOUT_MS,
      );
      // The ready lines come on stdout; the demo's lines in the venue log on stderr.
      const seen = (d: unknown) => {
        out += String(d);
        if (readyMs === undefined && out.includes('venue ready at')) {
          readyMs = performance.now() - started;
          console.log(`  venue ready after ${readyMs.toFixed(0)} ms; waiting for the first demo fill`);
        }
        if (readyMs !== undefined && out.includes('FIRST fully_filled')) {
          clearTimeout(timer);
          resolve({ readyMs, firstFillMs: performance.now() - started });
        }
      };
      child.stdout!.on('data', seen);
      child.stderr!.on('data', seen);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}):\n${out.slice(-2000)}`));
      });
    });
  } finally {
    await stopGroup(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runCase(kind: 'idle' | 'busy'): Promise<Run[]> {
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    const busy = kind === 'busy' ? busyEveryCore() : [];
    try {
      const r = await oneRun();
      console.log(
        `${kind} run ${i + 1}: ready ${r.readyMs.toFixed(0)} ms, first fill ${r.firstFillMs.toFixed(0)} ms`,
      );
      runs.push(r);
    } finally {
      for (const b of busy) b.kill('SIGKILL');
    }
  }
  return runs;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const secs = (xs: number[]) =>
  `${(median(xs) / 1000).toFixed(1)} s (${xs.map((x) => (x / 1000).toFixed(1)).join(', ')})`;

/** The section: one row per case, medians with each run in brackets. */
function section(results: Map<string, Run[]>): string {
  const rows = [...results].map(
    ([kind, runs]) =>
      `| ${kind === 'busy' ? `both cores busy (${availableParallelism() * BUSY_PER_CORE} spinning processes)` : 'idle'} | ` +
      `${secs(runs.map((r) => r.readyMs))} | ${secs(runs.map((r) => r.firstFillMs))} |`,
  );
  return [
    HEADING,
    '',
    '`npx tsx packages/cli/bench/first-fill.bench.ts`: `npm start -- --demo-traders 4` spawned from the',
    'repository root (fresh data dir, free ports), timed from the spawn to "venue ready at" and to the',
    "demo's `FIRST fully_filled` line. Busy: one spinning child process per core for the whole run.",
    `Measured on ${new Date().toISOString().slice(0, 10)}; medians, each run in brackets.`,
    '',
    '| machine | spawn → venue ready | spawn → first demo fill |',
    '| --- | ---: | ---: |',
    ...rows,
    '',
  ].join('\n');
}

/** Replaces the section in docs/benchmarks/app.md (up to the next `## ` heading), or appends it. */
function writeSection(text: string): void {
  const doc = readFileSync(DOC, 'utf8');
  const at = doc.indexOf(HEADING);
  const next = at < 0 ? -1 : doc.indexOf('\n## ', at + HEADING.length);
  const updated =
    at < 0
      ? `${doc.trimEnd()}\n\n${text}`
      : doc.slice(0, at) + text + (next < 0 ? '' : `\n${doc.slice(next + 1)}`);
  writeFileSync(DOC, updated);
}

const results = new Map<string, Run[]>();
for (const kind of CASES) results.set(kind, await runCase(kind));
const text = section(results);
console.log(`\n${text}`);
if (WRITE) writeSection(text);
