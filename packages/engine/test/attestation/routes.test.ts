/**
 * The attestation routes over real HTTPS: the evidence the simulated platform serves is accepted
 * by `@phala/dcap-qvl` under the simulated root, and binds this very boot's TLS key, session,
 * signer set and release.
 */
import { createHash, randomBytes } from 'node:crypto';
import { QuoteVerifier, type Collateral } from '@phala/dcap-qvl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPOSE_HASH_EVENT,
  decodeTransportManifest,
  replayRtmr,
  RUNTIME_EVENT_TYPE,
  runtimeEventDigest,
  transportReportData,
} from '@nightjar/protocol';
import { computeComposeHash, EVIDENCE_HEADER } from '../../src/index.js';
import { startTestVenue, type TestVenue } from '@nightjar/testkit';

interface Entry {
  imr: number;
  event_type: number;
  digest: string;
  event: string;
  event_payload: string;
}

function verifyQuote(v: TestVenue, quoteHex: string, collateral: Collateral) {
  const verifier = QuoteVerifier.newWithRootCa(Buffer.from(v.engine.attestation.rootCa!.der));
  const report = verifier.verify(Buffer.from(quoteHex, 'hex'), collateral, Date.now() / 1000);
  return { status: report.status, td: report.report.asTd10()! };
}

describe('transport attestation routes', () => {
  let v: TestVenue;
  beforeAll(async () => {
    v = await startTestVenue({ attestation: { rateLimit: { capacity: 50, refillPerSecond: 1 } } });
  });
  afterAll(async () => {
    await v.close();
  });

  it('serves a quote dcap-qvl accepts under the simulated root, bound to the nonce and this boot', async () => {
    const nonce = randomBytes(32);
    const r = await v.client.send(`/transport-attestation?nonce=${nonce.toString('hex')}`);
    expect(r.status).toBe(200);
    const body = r.body;
    const manifestBytes = Buffer.from(body.manifest_bytes, 'hex');
    expect(decodeTransportManifest(manifestBytes)).toEqual(body.manifest);
    expect(body.manifest).toMatchObject({
      protocol_version: 1,
      transport_mode: 1,
      boot_session_id: v.engine.bootSessionId,
      tls_spki_sha256: v.engine.certificate.spkiSha256,
      signer_set_sha256: v.engine.context.chain.signerSetSha256,
    });
    expect(body.report_data).toBe(Buffer.from(transportReportData(nonce, manifestBytes)).toString('hex'));

    const { status, td } = verifyQuote(v, body.quote, body.collateral);
    expect(status).toBe('UpToDate');
    expect(Buffer.from(td.reportData).toString('hex')).toBe(body.report_data);

    // RTMR3 replays from the event log, which carries exactly one runtime compose-hash event.
    const log = body.event_log as Entry[];
    expect(
      Buffer.from(replayRtmr(log.filter((e) => e.imr === 3).map((e) => Buffer.from(e.digest, 'hex')))),
    ).toEqual(Buffer.from(td.rtMr3));
    for (const e of log.filter((x) => x.event_type === RUNTIME_EVENT_TYPE))
      expect(
        Buffer.from(runtimeEventDigest(e.event_type, e.event, Buffer.from(e.event_payload, 'hex'))).toString(
          'hex',
        ),
      ).toBe(e.digest);
    const compose = log.filter((e) => e.event === COMPOSE_HASH_EVENT);
    expect(compose).toHaveLength(1);
    expect(compose[0]!.event_payload).toBe(computeComposeHash());
    expect(compose[0]!.event_type).toBe(RUNTIME_EVENT_TYPE);

    // The manifest's identity hashes are those /info shows.
    const info = await v.client.send('/info');
    expect(info.body.attestation).toEqual({
      platform: 'simulated',
      app_id_sha256: body.manifest.app_id_sha256,
      instance_id_sha256: body.manifest.instance_id_sha256,
      compose_hash: computeComposeHash(),
    });
    expect(body.manifest.app_id_sha256).toBe(
      createHash('sha256').update(Buffer.from(v.engine.attestation.platform.appId, 'hex')).digest('hex'),
    );
  });

  it('takes exactly 32 bytes of hex as the nonce (either case), else 400 1001', async () => {
    const upper = await v.client.send(`/transport-attestation?nonce=${'AB'.repeat(32)}`);
    expect(upper.status).toBe(200);
    expect(upper.body.report_data.slice(0, 64)).toBe('ab'.repeat(32));
    for (const q of [
      '',
      '?nonce=',
      `?nonce=${'ab'.repeat(31)}`,
      `?nonce=${'zz'.repeat(32)}`,
      `?nonce=${'ab'.repeat(33)}`,
    ]) {
      const r = await v.client.send(`/transport-attestation${q}`);
      expect([q, r.status, r.body.code]).toEqual([q, 400, 1001]);
    }
    const twice = await v.client.send(
      `/transport-attestation?nonce=${'ab'.repeat(32)}&nonce=${'cd'.repeat(32)}`,
    );
    expect([twice.status, twice.body.code]).toEqual([400, 1001]);
  });

  it('/transparency and /info show the engine identity', async () => {
    const t = await v.client.send('/transparency');
    expect(t.body.engine).toEqual({
      boot_session_id: v.engine.bootSessionId,
      tee_keys: v.engine.context.chain.teeKeys,
      signer_set_sha256: v.engine.context.chain.signerSetSha256,
      compose_hash: computeComposeHash(),
    });
  });

  it('/attestation quotes SHA-512("venue/attestation/v1" ‖ caller bytes), never the bytes themselves', async () => {
    // The bytes a man in the middle would want quoted: a transport report data for its manifest.
    const wanted = transportReportData(randomBytes(32), randomBytes(164));
    const callerHex = Buffer.from(wanted).toString('hex');
    const r = await v.client.send(`/attestation?reportData=${callerHex.toUpperCase()}`);
    expect(r.status).toBe(200);
    const derived = createHash('sha512').update('venue/attestation/v1').update(wanted).digest('hex');
    expect(r.body.caller_data).toBe(callerHex);
    expect(r.body.report_data).toBe(derived);
    const { status, td } = verifyQuote(v, r.body.quote, r.body.collateral);
    expect(status).toBe('UpToDate');
    expect(Buffer.from(td.reportData).toString('hex')).toBe(derived);
    expect(Buffer.from(td.reportData).toString('hex')).not.toBe(callerHex);
    // Short and absent caller data are derived the same way (no zero padding).
    const short = await v.client.send('/attestation?reportData=c0ffee');
    expect(short.body.report_data).toBe(
      createHash('sha512').update('venue/attestation/v1').update(Buffer.from('c0ffee', 'hex')).digest('hex'),
    );
    const none = await v.client.send('/attestation');
    expect([none.body.caller_data, none.body.report_data]).toEqual([
      '',
      createHash('sha512').update('venue/attestation/v1').digest('hex'),
    ]);
    for (const q of ['?reportData=abc', `?reportData=${'ab'.repeat(65)}`, '?reportData=xx']) {
      const bad = await v.client.send(`/attestation${q}`);
      expect([q, bad.status, bad.body.code]).toEqual([q, 400, 1001]);
    }
  });

  it('serves gateway files under /evidences/, marked as not the engine quote', async () => {
    const r = await v.client.send('/evidences/README.txt');
    expect(r.status).toBe(200);
    expect(r.headers[EVIDENCE_HEADER]).toMatch(/not the engine quote/);
    expect(r.text).toMatch(/NOT the engine's attestation/);
    for (const path of ['/evidences/missing.json', '/evidences/..%2Fengine.sqlite', '/evidences/a/b']) {
      const missing = await v.client.send(path);
      expect([path, missing.status, missing.body.code]).toEqual([path, 404, 1301]);
    }
  });
});

describe('attestation rate limit', () => {
  it('answers 429 1401 with Retry-After once the per-IP bucket is empty', async () => {
    const v = await startTestVenue({ attestation: { rateLimit: { capacity: 2, refillPerSecond: 0.5 } } });
    try {
      const nonce = '11'.repeat(32);
      expect((await v.client.send(`/transport-attestation?nonce=${nonce}`)).status).toBe(200);
      expect((await v.client.send(`/attestation`)).status).toBe(200);
      const limited = await v.client.send(`/transport-attestation?nonce=${nonce}`);
      expect([limited.status, limited.body.code]).toEqual([429, 1401]);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Other public reads are not charged.
      expect((await v.client.send('/info')).status).toBe(200);
    } finally {
      await v.close();
    }
  });
});
