/**
 * `GET /prover/challenge` and `POST /prover/register` over real HTTPS against an engine with a
 * prover pool: a good worker is admitted and listed by the registry the queue seals jobs to; a bad
 * one gets a 4xx naming the failed check and is never listed, so the engine has no key to seal it
 * a witness with. Without a pool both routes answer 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVER_EVIDENCE_MAX_BYTES, proverRegistrationCodec, stringifyJson } from '@nightjar/protocol';
import { computeComposeHash, SimulatedPlatform } from '../../src/index.js';
import { HttpsClient, startTestVenue, type TestVenue } from '@nightjar/testkit';
import { sharedPki, startTestWorker, type TestWorker } from './helpers.js';

describe('prover registration routes', () => {
  const pki = sharedPki();
  let v: TestVenue;
  let bare: TestVenue;

  beforeAll(async () => {
    const platform = await SimulatedPlatform.open({
      dir: undefined,
      composeHash: computeComposeHash(),
      pkiDir: pki.pkiDir,
    });
    v = await startTestVenue({
      attestation: { platform, rateLimit: { capacity: 50, refillPerSecond: 1 } },
      proverPool: { queueUrl: 'postgres://queue.test/nightjar' },
    });
    bare = await startTestVenue();
  });
  afterAll(async () => {
    await v.close();
    await bare.close();
    pki.remove();
  });

  async function register(w: TestWorker) {
    const challenge = await v.client.send('/prover/challenge');
    expect(challenge.status).toBe(200);
    const evidence = await w.evidence(challenge.body.nonce);
    return v.client.send('/prover/register', { method: 'POST', body: evidence });
  }

  const listedKeys = () =>
    v.engine.proverPool!.workers.list().map((w) => Buffer.from(w.sealingPublicKey).toString('hex'));

  it('admits a worker of this venue running the pinned prover release', async () => {
    const w = await startTestWorker({ pkiDir: pki.pkiDir });
    const r = await register(w);
    expect(r.status).toBe(200);
    const reply = proverRegistrationCodec.parse(r.body);
    expect(reply.worker_id).toBe(w.identity.workerId);
    // The queue's engine id: its settlement key's address (Base58), stable for its data directory.
    expect(reply.engine_id).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(reply.queue_url).toBe('postgres://queue.test/nightjar');
    expect(reply.engine_public_key).toBe(
      Buffer.from(v.engine.proverPool!.resultKeys.publicKey).toString('hex'),
    );
    expect(v.engine.proverPool!.workers.get(w.identity.workerId)).toBeDefined();
    expect(listedKeys()).toContain(Buffer.from(w.identity.sealingKeys.publicKey).toString('hex'));
  });

  it('a worker whose attestation fails is never sent a witness: 403 naming the check, and no key to seal to', async () => {
    // The engine's own release, not the prover's: check (c).
    const impostor = await startTestWorker({ pkiDir: pki.pkiDir, composeHash: computeComposeHash() });
    const r = await register(impostor);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(1150);
    expect(r.body.message).toMatch(/check \(c\)/);
    expect(v.engine.proverPool!.workers.get(impostor.identity.workerId)).toBeUndefined();
    expect(listedKeys()).not.toContain(Buffer.from(impostor.identity.sealingKeys.publicKey).toString('hex'));
  });

  it('refuses a worker the pool dropped (its proof failed verification) with 403 1150', async () => {
    const w = await startTestWorker({ pkiDir: pki.pkiDir });
    expect((await register(w)).status).toBe(200);
    v.engine.proverPool!.workers.drop!(w.identity.workerId);
    const again = await register(w);
    expect(again.status).toBe(403);
    expect(again.body.code).toBe(1150);
    expect(again.body.message).toMatch(/failed verification/);
    expect(v.engine.proverPool!.workers.get(w.identity.workerId)).toBeUndefined();
  });

  it('refuses a spent nonce before verifying any quote, and a malformed body with 400', async () => {
    const w = await startTestWorker({ pkiDir: pki.pkiDir });
    const challenge = await v.client.send('/prover/challenge');
    const evidence = await w.evidence(challenge.body.nonce);
    expect((await v.client.send('/prover/register', { method: 'POST', body: evidence })).status).toBe(200);
    const replay = await v.client.send('/prover/register', { method: 'POST', body: evidence });
    expect(replay.status).toBe(403);
    expect(replay.body.message).toMatch(/check \(a\)/);
    const malformed = await v.client.send('/prover/register', { method: 'POST', body: { nonce: 'zz' } });
    expect(malformed.status).toBe(400);
  });

  it('takes evidence above the default body limit, and refuses a body over its own before parsing it', async () => {
    const w = await startTestWorker({ pkiDir: pki.pkiDir });
    const challenge = await v.client.send('/prover/challenge');
    const evidence = await w.evidence(challenge.body.nonce);
    expect(stringifyJson(evidence).length).toBeGreaterThan(16 * 1024);
    const huge = { ...evidence, quote: 'ab'.repeat(PROVER_EVIDENCE_MAX_BYTES / 2) };
    const r = await v.client.send('/prover/register', { method: 'POST', body: huge });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(1000);
    expect(r.body.message).toMatch(/body larger than/);
    expect(v.engine.proverPool!.workers.get(w.identity.workerId)).toBeUndefined();
  });

  it('charges challenges to the caller address like the quote routes', async () => {
    const flood = new HttpsClient(v.engine.url, v.engine.certificate.certPem, '127.0.0.9');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) statuses.push((await flood.send('/prover/challenge')).status);
      expect(statuses).toContain(429);
      expect(statuses[0]).toBe(200);
    } finally {
      flood.close();
    }
  });

  it('answers 404 on an engine without a prover pool', async () => {
    expect((await bare.client.send('/prover/challenge')).status).toBe(404);
    const r = await bare.client.send('/prover/register', { method: 'POST', body: {} });
    expect(r.status).toBe(404);
    expect(bare.engine.proverPool).toBeUndefined();
  });
});
