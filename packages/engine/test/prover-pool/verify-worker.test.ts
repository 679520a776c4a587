/**
 * A prover worker's attestation, checked by the engine (a)–(d) with the same checks a client runs
 * on the engine: a good worker round-trips into the registry; each tampered input is refused at
 * its own check, and a refused worker is never listed (so no job is ever sealed to its key).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPOSE_HASH_EVENT,
  decodeProverManifest,
  proverWorkerId,
  type ProverEvidenceBody,
} from '@nightjar/protocol';
import {
  computeComposeHash,
  computeProverComposeHash,
  createWorkerIdentity,
  ProverRegistration,
} from '../../src/index.js';
import { refusalOf, sharedPki, startTestWorker, type TestWorker } from './helpers.js';

describe('prover worker attestation (a)–(d)', () => {
  const pki = sharedPki();
  let worker: TestWorker;
  let engine: ProverRegistration;

  beforeAll(async () => {
    worker = await startTestWorker({ pkiDir: pki.pkiDir });
    engine = new ProverRegistration({
      rootCaDer: worker.platform.rootCa.der,
      composeHashes: [computeProverComposeHash()],
      queueUrl: 'postgres://queue.test/nightjar',
      now: Date.now,
    });
    engine.engineId = 'e'.repeat(64);
  });
  afterAll(() => pki.remove());

  const fresh = async (w: TestWorker = worker) => w.evidence(engine.challenge().nonce);
  const expectUnlisted = (w: TestWorker) => {
    const id = proverWorkerId(w.identity.sealingKeys.publicKey);
    expect(engine.registry.get(id)).toBeUndefined();
    const keys = engine.registry.list().map((x) => Buffer.from(x.sealingPublicKey).toString('hex'));
    expect(keys).not.toContain(Buffer.from(w.identity.sealingKeys.publicKey).toString('hex'));
  };

  it('admits a good worker: its id, sealing key and release are what the registry lists', async () => {
    const evidence = await fresh();
    const manifest = decodeProverManifest(Buffer.from(evidence.manifest_bytes, 'hex'));
    expect(manifest.sealing_public_key).toBe(evidence.sealing_public_key);
    const reply = await engine.register(evidence);
    expect(reply).toEqual({
      worker_id: worker.identity.workerId,
      engine_public_key: Buffer.from(engine.resultKeys.publicKey).toString('hex'),
      engine_id: 'e'.repeat(64),
      queue_url: 'postgres://queue.test/nightjar',
      ttl_ms: engine.registry.ttlMs,
    });
    expect(worker.identity.workerId).toMatch(/^[0-9a-f]{32}$/);
    const listed = engine.registry.get(worker.identity.workerId);
    expect(listed?.composeHash).toBe(computeProverComposeHash());
    expect(Buffer.from(listed!.sealingPublicKey)).toEqual(Buffer.from(worker.identity.sealingKeys.publicKey));
  });

  /** Evidence from `w` (default a fresh worker of this venue) for a fresh nonce, tampered by `edit`. */
  async function refusal(edit: (e: ProverEvidenceBody) => ProverEvidenceBody = (e) => e, w?: TestWorker) {
    const other = w ?? (await startTestWorker({ pkiDir: pki.pkiDir }));
    const evidence = edit(await fresh(other));
    const refused = await refusalOf(() => engine.verify(evidence));
    expectUnlisted(other);
    return refused;
  }

  it('(a) refuses a nonce this engine never issued', async () => {
    const other = await startTestWorker({ pkiDir: pki.pkiDir });
    const evidence = await other.evidence(randomBytes(32).toString('hex'));
    expect((await refusalOf(() => engine.verify(evidence))).check).toBe('a');
    expectUnlisted(other);
  });

  it('(a) refuses an unknown nonce before it parses the quote', async () => {
    const evidence = { ...(await fresh()), nonce: randomBytes(32).toString('hex'), quote: '00' };
    const refused = await refusalOf(() => engine.verify(evidence));
    expect(refused.check).toBe('a');
    expect(refused.reason).toMatch(/not issued by this engine/);
  });

  it('(a) refuses a nonce used once already', async () => {
    const other = await startTestWorker({ pkiDir: pki.pkiDir });
    const evidence = await fresh(other);
    await engine.verify(evidence);
    const again = await refusalOf(() => engine.verify(evidence));
    expect(again.check).toBe('a');
    expect(again.reason).toMatch(/was used/);
  });

  it('(a) refuses an expired nonce', async () => {
    let now = Date.now();
    const clocked = new ProverRegistration({
      rootCaDer: worker.platform.rootCa.der,
      composeHashes: [computeProverComposeHash()],
      queueUrl: 'postgres://queue.test/nightjar',
      now: () => now,
    });
    const evidence = await worker.evidence(clocked.challenge().nonce);
    now += 61_000;
    expect((await refusalOf(() => clocked.verify(evidence))).check).toBe('a');
    expect(clocked.registry.list()).toHaveLength(0);
  });

  it('(a) refuses a quote under another root', async () => {
    const refused = await refusal(undefined, await startTestWorker());
    expect(refused.check).toBe('a');
    expect(refused.reason).toMatch(/pinned root/);
  });

  it("(a) refuses report data that is not the quote's", async () => {
    const refused = await refusal((e) => ({ ...e, report_data: e.nonce + '00'.repeat(32) }));
    expect(refused.check).toBe('a');
  });

  it('(b) refuses manifest bytes that do not reproduce the quoted digest', async () => {
    const refused = await refusal((e) => {
      const bytes = Buffer.from(e.manifest_bytes, 'hex');
      bytes[10]! ^= 1; // inside SHA-256(app_id)
      return { ...e, manifest_bytes: bytes.toString('hex') };
    });
    expect(refused.check).toBe('b');
    expect(refused.reason).toMatch(/report data/);
  });

  it('(b) refuses a registration naming a sealing key other than the attested one', async () => {
    const swapped = createWorkerIdentity().sealingKeys.publicKey;
    const refused = await refusal((e) => ({
      ...e,
      sealing_public_key: Buffer.from(swapped).toString('hex'),
    }));
    expect(refused.check).toBe('b');
    expect(refused.reason).toMatch(/sealing key/);
    expect(engine.registry.get(proverWorkerId(swapped))).toBeUndefined();
  });

  it('(c) refuses an event log with two compose-hash events', async () => {
    const refused = await refusal((e) => {
      const compose = e.event_log.find((x) => x.event === COMPOSE_HASH_EVENT)!;
      return { ...e, event_log: [...e.event_log, compose] };
    });
    expect(refused.check).toBe('c');
    expect(refused.reason).toMatch(/exactly one/);
  });

  it('(c) refuses an event log that does not replay to RTMR3', async () => {
    const refused = await refusal((e) => ({
      ...e,
      event_log: e.event_log.filter((x) => x.event !== 'boot-mr-done'),
    }));
    expect(refused.check).toBe('c');
    expect(refused.reason).toMatch(/replay/);
  });

  it("(c) refuses the ENGINE's compose hash: an engine quote never passes as a worker's", async () => {
    expect(computeComposeHash()).not.toBe(computeProverComposeHash());
    const engineRelease = await startTestWorker({ pkiDir: pki.pkiDir, composeHash: computeComposeHash() });
    const refused = await refusal(undefined, engineRelease);
    expect(refused.check).toBe('c');
    expect(refused.reason).toMatch(/pinned release/);
  });

  it('(d) refuses a registration naming another boot session', async () => {
    const refused = await refusal((e) => ({ ...e, boot_session_id: randomBytes(32).toString('hex') }));
    expect(refused.check).toBe('d');
  });

  it('answers a refusal over the wire as 403 1150 with the check letter', async () => {
    const evidence = await (await startTestWorker()).evidence(engine.challenge().nonce);
    await expect(engine.register(evidence)).rejects.toThrow(/attestation check \(a\) failed/);
  });
});
