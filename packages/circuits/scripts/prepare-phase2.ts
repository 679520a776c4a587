/**
 * Phase-1 finishing step of the dev ceremony: `powersoftau prepare phase2`, the Lagrange bases of
 * every power. snarkjs does it with group FFTs in WebAssembly, which takes hours at power 15 on
 * this project's two-core machines; native/ptau-prepare.cpp (built by node-gyp beside the prover)
 * writes the same bytes in minutes. Without the native tool, snarkjs does it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadSnarkjs, type SnarkjsLogger } from '@nightjar/crypto';

/** Where node-gyp leaves the native tool. */
export const NATIVE_PTAU_PREPARE = join(
  fileURLToPath(new URL('..', import.meta.url)),
  'build',
  'Release',
  'ptau_prepare',
);

export interface PreparePhase2Options {
  /** 'auto' (default): native when built, else snarkjs. */
  backend?: 'auto' | 'native' | 'snarkjs';
  threads?: number;
  logger?: SnarkjsLogger;
}

/** Which backend `preparePhase2` would use. */
export function preparePhase2Backend(options: PreparePhase2Options = {}): 'native' | 'snarkjs' {
  const backend = options.backend ?? 'auto';
  if (backend !== 'auto') return backend;
  return existsSync(NATIVE_PTAU_PREPARE) ? 'native' : 'snarkjs';
}

export async function preparePhase2(
  contributionPtau: string,
  finalPtau: string,
  options: PreparePhase2Options = {},
): Promise<void> {
  if (preparePhase2Backend(options) === 'snarkjs') {
    const snarkjs = await loadSnarkjs();
    await snarkjs.powersOfTau.preparePhase2(contributionPtau, finalPtau, options.logger);
    return;
  }
  const args = [contributionPtau, finalPtau];
  if (options.threads !== undefined) args.push(String(options.threads));
  await new Promise<void>((resolve, reject) => {
    const child = spawn(NATIVE_PTAU_PREPARE, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-4096);
      for (const line of chunk.split('\n')) if (line !== '') options.logger?.debug(line);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`ptau_prepare exited with ${String(code)}: ${tail.trim()}`));
    });
  });
}
