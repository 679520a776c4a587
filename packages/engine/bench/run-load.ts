/** Forks load-process.ts as its own OS process, hands it a job and resolves with its result. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './load-process.js';

export function runLoad(job: LoadJob): Promise<LoadResult> {
  const child = fork(fileURLToPath(new URL('./load-process.ts', import.meta.url)), {
    execArgv: ['--conditions=nightjar-source', '--import', 'tsx'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { ok: boolean; result?: LoadResult; error?: string }) => {
      if (m.ok) resolve(m.result!);
      else reject(new Error(m.error));
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with code ${code}`));
    });
    child.send(job);
  });
}
