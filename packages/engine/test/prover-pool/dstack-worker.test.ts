/**
 * A prover worker in a CVM (the dstack platform, here against a fake guest agent whose TD is
 * simulated): a real CVM serves no collateral, so the engine verifies its quote with collateral
 * from its own source (`proverPool.fetchCollateral`), as the SDK does with a PCCS. Without one the
 * quote cannot be verified and the worker is refused at (a); with a failing source the engine
 * answers 503 and admits nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Collateral } from '@phala/dcap-qvl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VenueError } from '@nightjar/protocol';
import { startFakeDstackAgent } from '@nightjar/testkit/fixtures';
import {
  buildWorkerEvidence,
  computeProverComposeHash,
  createWorkerIdentity,
  DstackPlatform,
  ProverRegistration,
  SimulatedPlatform,
} from '../../src/index.js';
import { refusalOf } from './helpers.js';

describe('a prover worker on the dstack platform', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-dstack-worker-'));
  let td: SimulatedPlatform;
  let agent: Awaited<ReturnType<typeof startFakeDstackAgent>>;
  let platform: DstackPlatform;

  beforeAll(async () => {
    td = await SimulatedPlatform.open({ dir: undefined, composeHash: computeProverComposeHash() });
    const socket = join(dir, 'dstack.sock');
    agent = await startFakeDstackAgent(socket, td);
    platform = await DstackPlatform.open({ endpoint: socket });
  });
  afterAll(async () => {
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const engineWith = (fetchCollateral?: (quote: Uint8Array) => Promise<Collateral>) =>
    new ProverRegistration({
      rootCaDer: td.rootCa.der,
      composeHashes: [computeProverComposeHash()],
      queueUrl: 'postgres://queue.test/nightjar',
      now: Date.now,
      ...(fetchCollateral ? { fetchCollateral } : {}),
    });

  async function evidenceFor(engine: ProverRegistration) {
    const identity = createWorkerIdentity();
    const evidence = await buildWorkerEvidence({
      platform,
      nonce: Buffer.from(engine.challenge().nonce, 'hex'),
      bootSessionId: identity.bootSessionId,
      sealingPublicKey: identity.sealingKeys.publicKey,
    });
    return { identity, evidence };
  }

  it('sends no collateral, so an engine without its own source refuses it at (a)', async () => {
    const engine = engineWith();
    const { evidence } = await evidenceFor(engine);
    expect(evidence.collateral).toBeUndefined();
    const refused = await refusalOf(() => engine.verify(evidence));
    expect(refused.check).toBe('a');
    expect(refused.reason).toMatch(/collateral/);
    expect(engine.registry.list()).toHaveLength(0);
  });

  it("is admitted with the engine's own collateral", async () => {
    const fetched: Uint8Array[] = [];
    const engine = engineWith(async (quote) => {
      fetched.push(quote);
      return td.currentCollateral() as unknown as Collateral;
    });
    const { identity, evidence } = await evidenceFor(engine);
    const reply = await engine.register(evidence);
    expect(reply.worker_id).toBe(identity.workerId);
    expect(fetched).toHaveLength(1);
    expect(engine.registry.get(identity.workerId)?.composeHash).toBe(computeProverComposeHash());
  });

  it('answers 503 when its collateral source fails, admitting nothing', async () => {
    const engine = engineWith(async () => {
      throw new Error('PCCS unreachable');
    });
    const { evidence } = await evidenceFor(engine);
    const err = await engine.register(evidence).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueError);
    expect((err as VenueError).status).toBe(503);
    expect(engine.registry.list()).toHaveLength(0);
  });
});
