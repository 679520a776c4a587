import { bigIntToBytes, FIELD_MODULUS } from '@nightjar/protocol';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doubleA, nonSubgroupB, offCurveA } from '../../test/fixtures/groth16/forge.js';
import { loadToy5Fixture, loadToy7Fixture } from '../../test/fixtures/groth16/index.js';
import { AdaptiveBatcher } from './adaptive-batcher.js';
import { isGroth16Error, VerifierCapacityError, VerifierClosedError } from './errors.js';
import { initMcl } from './mcl-verifier.js';
import { BASE_FIELD_MODULUS, snarkjsProofToBytes } from './proof-format.js';
import { publicSignalsToBigInts, publicSignalsToBytes } from './public-inputs.js';
import { VerifierPool, type RawProofItem } from './verifier-pool.js';

const toy5 = loadToy5Fixture();
const toy7 = loadToy7Fixture();
const toItems = (f: typeof toy5): RawProofItem[] =>
  f.proofs.map((p) => ({
    proof: snarkjsProofToBytes(p.proof),
    publicInputs: publicSignalsToBytes(p.publicSignals),
  }));
const items5 = toItems(toy5);
const items7 = toItems(toy7);
const item5 = (i: number): RawProofItem => items5[i % items5.length] as RawProofItem;
const keys = { VALID_INPUT: toy5.vk, VALID_SPEND: toy7.vk };

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

let pool: VerifierPool;

beforeAll(async () => {
  await initMcl(); // for the forging helpers in this thread
  pool = await VerifierPool.create({ keys, size: 2 });
});

afterAll(async () => {
  await pool.close();
});

describe('VerifierPool', () => {
  it('starts the configured number of workers and spreads jobs across them', async () => {
    expect(pool.size).toBe(2);
    expect(pool.liveWorkers).toBe(2);
    expect(pool.idleWorkers).toBe(2);
    const a = pool.run('VALID_INPUT', items5.slice(0, 6));
    const b = pool.run('VALID_INPUT', items5.slice(6, 12));
    expect(pool.idleWorkers).toBe(0); // one job on each worker
    expect(await a).toEqual(new Array(6).fill(true));
    expect(await b).toEqual(new Array(6).fill(true));
    expect(pool.idleWorkers).toBe(2);
  });

  it('supports several keys by id', async () => {
    expect(pool.keyIds()).toEqual(['VALID_INPUT', 'VALID_SPEND']);
    expect(pool.nPublic('VALID_SPEND')).toBe(7);
    const [r5, r7] = await Promise.all([
      pool.run('VALID_INPUT', items5.slice(0, 3)),
      pool.run('VALID_SPEND', items7),
    ]);
    expect(r5).toEqual([true, true, true]);
    expect(r7).toEqual([true, true, true, true]);
    // toy7 proofs, padded or not, are not VALID_INPUT proofs.
    const err = await rejection(pool.run('VALID_INPUT', items7));
    expect(isGroth16Error(err, 'GROTH16_PUBLIC_INPUT_LENGTH')).toBe(true);
    const unknown = await rejection(pool.run('NOPE', items5));
    expect(isGroth16Error(unknown, 'GROTH16_UNKNOWN_KEY')).toBe(true);
  });

  it('answers false for invalid points and inputs, and the workers survive', async () => {
    const big = (item5(3).publicInputs as Uint8Array).slice();
    big.set(bigIntToBytes(FIELD_MODULUS, 32), 32);
    const bigCoord = item5(5).proof.slice();
    bigCoord.set(bigIntToBytes(BASE_FIELD_MODULUS, 32), 0);
    const batch: RawProofItem[] = [
      item5(0),
      { ...item5(1), proof: offCurveA(item5(1).proof) },
      { ...item5(2), proof: nonSubgroupB(item5(2).proof) },
      { ...item5(3), publicInputs: big },
      { ...item5(4), proof: doubleA(item5(4).proof) },
      { ...item5(5), proof: bigCoord },
      item5(6),
    ];
    expect(await pool.run('VALID_INPUT', batch)).toEqual([true, false, false, false, false, false, true]);
    expect(await pool.run('VALID_INPUT', [batch[2] as RawProofItem])).toEqual([false]);
    expect(pool.liveWorkers).toBe(2);
    expect(await pool.run('VALID_INPUT', [item5(7)])).toEqual([true]);
  });
});

describe('VerifierPool worker failure', () => {
  it('fails to start with a typed error when a key is not valid', async () => {
    const alpha = toy5.vk.vk_alpha_1;
    const bad = {
      ...toy5.vk,
      vk_alpha_1: [alpha[0] as string, (BigInt(alpha[1] as string) + 1n).toString(), '1'],
    };
    const err = await rejection(
      VerifierPool.create({ keys: { VALID_INPUT: bad as typeof toy5.vk }, size: 1 }),
    );
    expect(isGroth16Error(err, 'GROTH16_INVALID_VERIFICATION_KEY')).toBe(true);
  });

  it('replaces a worker that dies and keeps verifying', async () => {
    const small = await VerifierPool.create({ keys, size: 1 });
    // Reach into the pool to kill its only worker, as a crash would.
    const slots = (small as unknown as { slots: Set<{ worker: Worker }> }).slots;
    const victim = [...slots][0] as { worker: Worker };
    const replaced = new Promise<void>((resolve) => small.onIdle(resolve));
    await victim.worker.terminate();
    await replaced; // the replacement worker has loaded mcl and the keys
    expect(small.liveWorkers).toBe(1);
    expect([...slots][0]).not.toBe(victim);
    expect(
      await small.run('VALID_INPUT', [item5(0), { ...item5(1), proof: doubleA(item5(1).proof) }]),
    ).toEqual([true, false]);
    await small.close();
    expect(small.liveWorkers).toBe(0);
  });
});

describe('AdaptiveBatcher', () => {
  it('verifies a single request at once as a batch of one', async () => {
    const batcher = new AdaptiveBatcher(pool, { maxBatchSize: 64 });
    expect(await batcher.verify(item5(0).proof, item5(0).publicInputs)).toBe(true);
    expect(batcher.stats()).toMatchObject({
      submitted: 1,
      completed: 1,
      batches: 1,
      singles: 1,
      largestBatch: 1,
    });
    await batcher.close(); // does not own the pool
    expect(pool.liveWorkers).toBe(2);
  });

  it('batches a burst of 100 and answers each request correctly', async () => {
    const batcher = new AdaptiveBatcher(pool, { maxBatchSize: 32 });
    const bad = new Set([3, 41, 77]);
    const requests = Array.from({ length: 100 }, (_, i) => {
      const it = item5(i);
      const proof = bad.has(i) ? doubleA(it.proof) : it.proof;
      // Mix the input forms: bytes and field elements.
      const inputs =
        i % 2 === 0
          ? it.publicInputs
          : publicSignalsToBigInts(
              (toy5.proofs[i % toy5.proofs.length] as (typeof toy5.proofs)[number]).publicSignals,
            );
      return batcher.verify(proof, inputs);
    });
    const results = await Promise.all(requests);
    expect(results).toEqual(results.map((_, i) => !bad.has(i)));
    const stats = batcher.stats();
    expect(stats.completed).toBe(100);
    expect(stats.batches).toBeLessThan(20);
    expect(stats.largestBatch).toBeGreaterThan(1);
    expect(stats.largestBatch).toBeLessThanOrEqual(32);
    expect(stats.queued).toBe(0);
    expect(stats.inFlight).toBe(0);
    await batcher.close();
  });

  it('routes requests by key id', async () => {
    const batcher = new AdaptiveBatcher(pool, { defaultKeyId: 'VALID_SPEND' });
    const it7 = items7[0] as RawProofItem;
    const results = await Promise.all([
      batcher.verify(it7.proof, it7.publicInputs),
      batcher.verify(item5(0).proof, item5(0).publicInputs, 'VALID_INPUT'),
    ]);
    expect(results).toEqual([true, true]);
    const err = await rejection(batcher.verify(item5(0).proof, item5(0).publicInputs, 'NOPE'));
    expect(isGroth16Error(err, 'GROTH16_UNKNOWN_KEY')).toBe(true);
    const shape = await rejection(batcher.verify(item5(0).proof, item5(0).publicInputs)); // 5 inputs for a 7-input key
    expect(isGroth16Error(shape, 'GROTH16_PUBLIC_INPUT_LENGTH')).toBe(true);
    await batcher.close();
  });

  it('refuses requests beyond its bounded queue with a typed error', async () => {
    const batcher = new AdaptiveBatcher(pool, { maxQueue: 5 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => batcher.verify(item5(i).proof, item5(i).publicInputs)),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toHaveLength(3);
    for (const o of refused) {
      const reason = (o as PromiseRejectedResult).reason as unknown;
      expect(reason).toBeInstanceOf(VerifierCapacityError);
      expect(isGroth16Error(reason, 'GROTH16_QUEUE_FULL')).toBe(true);
    }
    expect(outcomes.slice(0, 5).map((o) => (o.status === 'fulfilled' ? o.value : undefined))).toEqual(
      new Array(5).fill(true),
    );
    expect(batcher.stats().refused).toBe(3);
    await batcher.close();
  });

  it('copies the caller buffers at submission', async () => {
    const batcher = new AdaptiveBatcher(pool);
    const proof = item5(1).proof.slice();
    const pending = batcher.verify(proof, item5(1).publicInputs);
    proof.fill(0); // must not affect the request
    expect(await pending).toBe(true);
    await batcher.close();
  });

  it('close() rejects waiting requests, finishes running ones and terminates its own workers', async () => {
    const batcher = await AdaptiveBatcher.create({ keys: { VALID_INPUT: toy5.vk }, size: 1 });
    expect(batcher.pool.liveWorkers).toBe(1);
    const first = batcher.verify(item5(0).proof, item5(0).publicInputs);
    await Promise.resolve(); // let the dispatch microtask send the first request to the worker
    const waiting = Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => batcher.verify(item5(i).proof, item5(i).publicInputs)),
    );
    expect(batcher.stats()).toMatchObject({ inFlight: 1, queued: 5 });
    const closing = batcher.close();
    expect(await first).toBe(true);
    for (const w of await waiting) {
      expect(w.status).toBe('rejected');
      expect((w as PromiseRejectedResult).reason).toBeInstanceOf(VerifierClosedError);
    }
    await closing;
    expect(batcher.pool.liveWorkers).toBe(0);
    expect(batcher.pool.isClosed).toBe(true);
    const after = await rejection(batcher.verify(item5(0).proof, item5(0).publicInputs));
    expect(isGroth16Error(after, 'GROTH16_VERIFIER_CLOSED')).toBe(true);
    const runAfter = await rejection(batcher.pool.run('VALID_INPUT', [item5(0)]));
    expect(runAfter).toBeInstanceOf(VerifierClosedError);
  });
});
