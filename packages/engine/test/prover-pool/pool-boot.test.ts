import { generateX25519KeyPair } from '@nightjar/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validMatchV2Params } from '../../../circuits/bench/proving-fixtures.js';
import { JobQueue } from '../../src/prover-pool/job-queue.js';
import { startProverPool } from '../../src/prover-pool/pool-boot.js';
import type { MatchProver } from '../../src/settlement/match-prover.js';
import { fakeVerifier } from './fake-pool.js';
import { startQueueDb, TEST_MIGRATIONS, type QueueDb } from './queue-db.js';

describe('startProverPool', () => {
  let db: QueueDb;
  beforeAll(async () => {
    db = await startQueueDb();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("purges the engine's earlier boots, keys each boot afresh, and proves in process with no worker", async () => {
    const queue = new JobQueue(db.pool);
    const job = { kind: 'match' as const, sealedPayload: new Uint8Array(1), sealedKeys: { w: 'AA==' } };
    await queue.enqueue({ ...job, engineId: 'engine-1', bootId: 'old-boot' });
    await queue.enqueue({ ...job, engineId: 'engine-2', bootId: 'old-boot' });
    let fallbackProofs = 0;
    let fallbackClosed = false;
    const fallback: MatchProver = {
      prove: async () => (fallbackProofs++, Promise.reject(new Error('in process'))),
      proveLock: () => Promise.reject(new Error('in process')),
      close: async () => void (fallbackClosed = true),
    };
    const deps = {
      engineId: 'engine-1',
      fallback,
      verifyMatch: fakeVerifier,
      dev: true,
      migrations: TEST_MIGRATIONS,
    };
    const firstKey = generateX25519KeyPair();
    const first = await startProverPool({ queueUrl: db.server.url }, { ...deps, resultKey: firstKey });
    const engines = await db.pool.query<{ engine_id: string }>('SELECT engine_id FROM prover_jobs');
    expect(engines.rows.map((r) => r.engine_id)).toEqual(['engine-2']);
    expect(first.registration).toMatchObject({ engineId: 'engine-1', queueUrl: db.server.url });
    await expect(first.prover.prove(validMatchV2Params())).rejects.toThrow('in process');
    expect(fallbackProofs).toBe(1);
    const second = await startProverPool(
      { queueUrl: db.server.url },
      { ...deps, resultKey: generateX25519KeyPair() },
    );
    // Workers learn the registration's per-boot result key: the pool seals results to that one.
    expect(Buffer.from(first.registration.enginePublicKey)).toEqual(Buffer.from(firstKey.publicKey));
    await Promise.all([first.prover.close(), second.prover.close()]);
    expect(fallbackClosed).toBe(true);
  });
});
