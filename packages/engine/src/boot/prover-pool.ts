/**
 * The prover pool's registration side at boot (only with `EngineOptions.proverPool`): the pinned
 * root for workers (default this engine's simulated root: machines of one venue share a PKI) and
 * the pinned prover releases (default this release's prover compose hash).
 */
import type { AttestationPlatform } from '../attestation/platform.js';
import { computeProverComposeHash } from '../attestation/compose-hash.js';
import type { EngineOptions } from '../engine-options.js';
import { ProverRegistration } from '../prover-pool/registration.js';

export function proverRegistration(
  options: EngineOptions,
  platform: AttestationPlatform,
  now: () => number,
): ProverRegistration | undefined {
  const pool = options.proverPool;
  if (!pool) return undefined;
  const rootCaDer = pool.rootCa ?? platform.rootCa?.der;
  if (!rootCaDer) throw new Error('proverPool.rootCa is required on a platform without a simulated root');
  return new ProverRegistration({
    rootCaDer,
    composeHashes: pool.composeHashes ?? [computeProverComposeHash()],
    queueUrl: pool.queueUrl,
    now,
    ...(pool.registrationTtlMs !== undefined ? { registrationTtlMs: pool.registrationTtlMs } : {}),
    ...(pool.maxWorkers !== undefined ? { maxWorkers: pool.maxWorkers } : {}),
    ...(pool.fetchCollateral ? { fetchCollateral: pool.fetchCollateral } : {}),
  });
}
