/**
 * The engine as a real child process (`engine-child.ts`) on a data directory, against a ledger
 * served from the test's own process over JSON-RPC (so the chain outlives the engine): for the
 * SIGKILL and restart tests. Every child started here is tracked, so a test file's `afterAll` can
 * kill whatever a failed test left running (`killEngineProcesses`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./engine-child.ts', import.meta.url));

export interface EngineChild {
  proc: ChildProcess;
  url: string;
  cert: string;
  bootSessionId: string;
  admin: { api_key: string; api_secret: string; passphrase: string } | null;
  exited: Promise<NodeJS.Signals | number | null>;
}

const running = new Set<EngineChild>();

/** Starts the engine child with `env` added and resolves with the JSON line it prints once it serves. */
export function startEngineProcess(env: Record<string, string>): Promise<EngineChild> {
  const proc = spawn(process.execPath, ['--conditions=nightjar-source', '--import', 'tsx', CHILD], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    proc.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0]!;
      if (!out.includes('\n')) return;
      const child: EngineChild = {
        proc,
        exited,
        ...(JSON.parse(line) as Omit<EngineChild, 'proc' | 'exited'>),
      };
      running.add(child);
      void exited.then(() => running.delete(child));
      resolve(child);
    });
    void exited.then((how) => reject(new Error(`engine child exited (${String(how)}): ${err.slice(-2000)}`)));
  });
}

/** SIGKILLs every engine child still running. */
export function killEngineProcesses(): void {
  for (const child of running) child.proc.kill('SIGKILL');
}
