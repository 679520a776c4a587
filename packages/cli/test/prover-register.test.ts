/**
 * The worker's registration client against a real engine with a prover pool, over HTTPS: it
 * verifies the engine's attestation before sending anything, registers, and the engine's registry
 * then lists it with the sealing key jobs are sealed to. A worker pinning another engine release
 * refuses the engine and is never registered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateX25519KeyPair } from '@nightjar/crypto';
import { computeComposeHash, computeProverComposeHash, SimulatedPlatform } from '@nightjar/engine';
import { isNightjarError, NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH } from '@nightjar/sdk';
import { startTestVenue, type TestVenue } from '@nightjar/testkit';
import { startFakeDstackAgent } from '@nightjar/testkit/fixtures';
import { openWorkerPlatform, registerWithEngine } from '../src/prover/register-with-engine.js';

describe('registerWithEngine', () => {
  const root = mkdtempSync(join(tmpdir(), 'nightjar-prover-register-'));
  const pkiDir = join(root, 'pki');
  let v: TestVenue;

  beforeAll(async () => {
    const platform = await SimulatedPlatform.open({
      dir: undefined,
      composeHash: computeComposeHash(),
      pkiDir,
    });
    v = await startTestVenue({
      attestation: { platform },
      proverPool: { queueUrl: 'postgres://queue.test/nightjar' },
    });
  });
  afterAll(async () => {
    await v.close();
    rmSync(root, { recursive: true, force: true });
  });

  const params = async (composeHash: string) => ({
    engineUrl: v.engine.url,
    pinnedRoot: v.engine.attestation.rootCa!.der,
    composeHash,
    ledger: v.ledger,
    platform: await openWorkerPlatform({ dataDir: join(root, 'worker'), pkiDir }),
    sealingKeys: generateX25519KeyPair(),
  });

  it('verifies the engine, registers, and is listed with its sealing key', async () => {
    const p = await params(v.engine.attestation.identity.compose_hash);
    const register = registerWithEngine(p);
    try {
      const reg = await register();
      // The queue's engine id: its settlement key's address (Base58), stable for its data directory.
      expect(reg.engineId).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      expect(reg.queueUrl).toBe('postgres://queue.test/nightjar');
      expect(Buffer.from(reg.enginePublicKey)).toEqual(
        Buffer.from(v.engine.proverPool!.resultKeys.publicKey),
      );
      const listed = v.engine.proverPool!.workers.get(reg.workerId);
      expect(Buffer.from(listed!.sealingPublicKey)).toEqual(Buffer.from(p.sealingKeys.publicKey));
      // Registering again (before the ttl lapses) keeps it listed, once.
      await register();
      expect(v.engine.proverPool!.workers.list().filter((w) => w.workerId === reg.workerId)).toHaveLength(1);
    } finally {
      register.close();
    }
  });

  it('refuses an engine that is not the pinned release, and is never registered', async () => {
    const p = await params('00'.repeat(32));
    const register = registerWithEngine(p);
    try {
      const err = await register().catch((e: unknown) => e);
      expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH)).toBe(true);
      const keys = v.engine
        .proverPool!.workers.list()
        .map((w) => Buffer.from(w.sealingPublicKey).toString('hex'));
      expect(keys).not.toContain(Buffer.from(p.sealingKeys.publicKey).toString('hex'));
    } finally {
      register.close();
    }
  });

  it('opens the dstack guest agent in a CVM, the simulated platform otherwise', async () => {
    const td = await SimulatedPlatform.open({ dir: undefined, composeHash: '11'.repeat(32) });
    const socket = join(root, 'dstack.sock');
    const agent = await startFakeDstackAgent(socket, td);
    try {
      const cvm = await openWorkerPlatform({ dataDir: undefined, kind: 'dstack', dstackEndpoint: socket });
      expect([cvm.kind, cvm.composeHash]).toEqual(['dstack', td.composeHash]);
    } finally {
      await agent.close();
    }
    const dev = await openWorkerPlatform({ dataDir: join(root, 'dev-worker'), pkiDir });
    expect([dev.kind, dev.composeHash]).toEqual(['simulated', computeProverComposeHash()]);
  });
});
