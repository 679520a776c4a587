/**
 * The prover worker's registration client. It reaches the engine only over the SDK's verified
 * transport, so the worker checks the ENGINE's attestation (a)–(d) before it sends anything; then
 * it takes a single-use challenge, answers it with its own evidence (its manifest binding its
 * sealing key and boot session, quoted by its platform) and learns what jobs it may take.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { X25519KeyPair } from '@nightjar/crypto';
import {
  buildWorkerEvidence,
  computeProverComposeHash,
  DstackPlatform,
  SimulatedPlatform,
  type AttestationPlatform,
  type RegisterWorker,
  type WorkerRegistration,
} from '@nightjar/engine';
import { proverChallengeCodec, proverRegistrationCodec, proverWorkerId } from '@nightjar/protocol';
import { createTransport, type CollateralFetcher, type SignerSetSource } from '@nightjar/sdk';

export interface RegisterWithEngineParameters {
  engineUrl: string;
  /** The platform root the ENGINE's quotes must chain to (DER). */
  pinnedRoot: Uint8Array;
  /** The engine release this worker trusts (the engine's compose hash, 64 hex). */
  composeHash: string;
  /** Where the worker reads the finalized on-chain signer set (the engine's check (d)). */
  ledger: SignerSetSource;
  /** The worker's own platform, running the prover release (`openWorkerPlatform`). */
  platform: AttestationPlatform;
  /** This boot's X25519 sealing keys (private key in memory only). */
  sealingKeys: X25519KeyPair;
  /** This boot's session id (default: fresh, 32 bytes). */
  bootSessionId?: string;
  fetchCollateral?: CollateralFetcher;
}

/** Registers (again) with the engine; `close()` drops the verified connection. */
export type EngineRegistration = RegisterWorker & { close(): void };

export function registerWithEngine(params: RegisterWithEngineParameters): EngineRegistration {
  const transport = createTransport({
    url: params.engineUrl,
    rootCaDer: params.pinnedRoot,
    composeHash: params.composeHash,
    ledger: params.ledger,
    ...(params.fetchCollateral ? { fetchCollateral: params.fetchCollateral } : {}),
  });
  const bootSessionId = params.bootSessionId ?? randomBytes(32).toString('hex');
  const workerId = proverWorkerId(params.sealingKeys.publicKey);
  const register = async (): Promise<WorkerRegistration> => {
    const challenge = await transport.request('/prover/challenge');
    if (challenge.status !== 200) throw new Error(`the engine gave no challenge (${challenge.status})`);
    const { nonce } = proverChallengeCodec.parse(challenge.body);
    const evidence = await buildWorkerEvidence({
      platform: params.platform,
      nonce: Buffer.from(nonce, 'hex'),
      bootSessionId,
      sealingPublicKey: params.sealingKeys.publicKey,
    });
    const r = await transport.request<{ message?: string }>('/prover/register', {
      method: 'POST',
      body: evidence,
    });
    if (r.status !== 200)
      throw new Error(
        `the engine refused this worker (${r.status}): ${r.body?.message ?? r.text.slice(0, 200)}`,
      );
    const reply = proverRegistrationCodec.parse(r.body);
    if (reply.worker_id !== workerId) throw new Error('the engine registered another worker id');
    return {
      workerId,
      enginePublicKey: new Uint8Array(Buffer.from(reply.engine_public_key, 'hex')),
      engineId: reply.engine_id,
      queueUrl: reply.queue_url,
      ttlMs: reply.ttl_ms,
    };
  };
  return Object.assign(register, { close: () => transport.close() });
}

/**
 * The worker's platform. In development (default) simulated, its identity under
 * `<worker data dir>/attestation`, running the prover release, under the venue's shared simulated
 * PKI (one pinned root); in a real CVM the dstack guest agent, whose compose hash is the CVM's (the
 * engine must pin it in `proverPool.composeHashes`, and fetch collateral with `fetchCollateral`).
 */
export function openWorkerPlatform(params: {
  dataDir: string | undefined;
  pkiDir?: string;
  kind?: 'simulated' | 'dstack';
  dstackEndpoint?: string;
}): Promise<AttestationPlatform> {
  if (params.kind === 'dstack')
    return DstackPlatform.open(params.dstackEndpoint ? { endpoint: params.dstackEndpoint } : {});
  return SimulatedPlatform.open({
    dir: params.dataDir ? join(params.dataDir, 'attestation') : undefined,
    composeHash: computeProverComposeHash(),
    ...(params.pkiDir ? { pkiDir: params.pkiDir } : {}),
  });
}
