/**
 * The real `nightjar` binary as the CLI tests run it: one-shot commands, their `--json` results,
 * and a venue (`nightjar start`) in its own process. Every process started here is tracked, so a
 * test file's `afterAll` can kill whatever a failed test left running (`killAll`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI's `bin/nightjar.mjs` (beside this package in the repository). */
export const BIN = fileURLToPath(new URL('../../cli/bin/nightjar.mjs', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const running = new Set<ChildProcess>();

/** Tracks a child until it exits. */
export function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Runs `nightjar args…` to completion (5 min bound) and returns its exit code and output. */
export function nightjar(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    track(
      execFile(
        process.execPath,
        [BIN, ...args],
        { env: { ...process.env, ...env }, timeout: 300_000 },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
          resolve({ code, stdout, stderr });
        },
      ),
    );
  });
}

/** Runs a command that must succeed with --json and returns its parsed output. */
export async function nightjarJson<T>(args: string[], env: Record<string, string> = {}): Promise<T> {
  const run = await nightjar([...args, '--json'], env);
  if (run.code !== 0) throw new Error(`nightjar ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

/**
 * Slots of 200 ms for tests that wait for notes to be final (31 slots: 6.2 s instead of 12.4 s at
 * the default 400 ms); pass as `startVenueProcess`'s extra arguments.
 */
export const FAST_SLOTS = ['--slot-ms', '200'];

/** A `nightjar start` process that said it is ready: its exit code to come, and its output so far. */
export interface StartedNightjar {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

/** Runs `nightjar start ...args` (tracked) and resolves once it prints that the venue is ready. */
export async function startNightjar(args: readonly string[]): Promise<StartedNightjar> {
  const child = track(
    spawn(process.execPath, [BIN, 'start', ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => out.includes('venue ready at') && resolve());
    child.on('exit', () => reject(new Error(`venue exited early: ${out} ${err}`)));
  });
  return { child, exited, output: () => out };
}

/**
 * Starts `nightjar start --port 0 --data-dir dir --no-app [...extra]` and resolves once it prints
 * that it is ready. `{ app: true }` starts the trading app beside it instead (`--app-port 0`, a free
 * port; ready.json's `app_url`): tests that do not use the app do not pay for it.
 */
export async function startVenueProcess(
  dir: string,
  extra: readonly string[] = [],
  options: { app?: boolean } = {},
): Promise<ChildProcess> {
  const app = options.app ? ['--app-port', '0'] : ['--no-app'];
  return (await startNightjar(['--port', '0', '--data-dir', dir, ...app, ...extra])).child;
}

/** Stops a venue the way an operator does (SIGINT) and waits for it to exit. */
export async function stopVenueProcess(venue: ChildProcess | undefined): Promise<void> {
  if (!venue || venue.exitCode !== null || venue.signalCode !== null) return;
  const exited = new Promise((r) => venue.once('exit', r));
  venue.kill('SIGINT');
  await exited;
}

/** SIGKILLs every tracked process still running. */
export function killAll(): void {
  for (const c of running) c.kill('SIGKILL');
}
