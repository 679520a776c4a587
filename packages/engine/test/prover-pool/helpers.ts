/** Prover workers on the simulated platform for the registration tests: one PKI, as one venue. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProverEvidenceBody } from '@nightjar/protocol';
import {
  buildWorkerEvidence,
  computeProverComposeHash,
  createWorkerIdentity,
  SimulatedPlatform,
  WorkerRefusedError,
  type WorkerIdentity,
} from '../../src/index.js';

export interface TestWorker {
  platform: SimulatedPlatform;
  identity: WorkerIdentity;
  /** Evidence for a nonce the engine issued. */
  evidence(nonce: string): Promise<ProverEvidenceBody>;
}

/** A temporary simulated PKI directory shared by the machines of one test venue. */
export function sharedPki(): { pkiDir: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'nightjar-prover-pki-'));
  return { pkiDir: join(root, 'pki'), remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A worker running `composeHash` (default the prover release) under `pkiDir` (default its own PKI). */
export async function startTestWorker(
  options: { pkiDir?: string; composeHash?: string } = {},
): Promise<TestWorker> {
  const platform = await SimulatedPlatform.open({
    dir: undefined,
    composeHash: options.composeHash ?? computeProverComposeHash(),
    ...(options.pkiDir ? { pkiDir: options.pkiDir } : {}),
  });
  const identity = createWorkerIdentity();
  return {
    platform,
    identity,
    evidence: (nonce) =>
      buildWorkerEvidence({
        platform,
        nonce: Buffer.from(nonce, 'hex'),
        bootSessionId: identity.bootSessionId,
        sealingPublicKey: identity.sealingKeys.publicKey,
      }),
  };
}

/** The refusal `run` throws (fails the test when it does not throw one). */
export async function refusalOf(run: () => Promise<unknown>): Promise<WorkerRefusedError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof WorkerRefusedError) return err;
    throw err;
  }
  throw new Error('the worker was admitted');
}
