/**
 * `GET /attestation/settlement-key?nonce=` over real HTTPS: the evidence passes the check a peer
 * engine runs (quote under the pinned root, this release, the engine's own settlement key bound
 * to the nonce) and fails it for any other key or nonce; the nonce is 32 bytes of hex (else 400
 * 1001), and the route is charged to the caller's address with the other quote routes (429 1401).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressToBase58, ed25519PublicKey } from '@nightjar/protocol';
import { startTestVenue, type TestVenue } from '@nightjar/testkit';
import { checkSettlementKeyEvidence } from '../../src/attestation/settlement-key-check.js';
import type { SettlementPipeline } from '../../src/settlement/pipeline.js';

describe('GET /attestation/settlement-key', () => {
  let v: TestVenue;
  beforeAll(async () => {
    v = await startTestVenue({ attestation: { rateLimit: { capacity: 4, refillPerSecond: 0.1 } } });
  });
  afterAll(async () => {
    await v.close();
  });

  it("binds this engine's settlement key to the nonce; a peer's check passes only for that key and nonce", async () => {
    const teeKey = (v.engine.context.settlement as SettlementPipeline).teeAddress;
    const nonce = randomBytes(32);
    const r = await v.client.send(`/attestation/settlement-key?nonce=${nonce.toString('hex')}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.tee_key).toBe(teeKey);
    const check = {
      evidence: r.body,
      nonce,
      teeKey,
      rootCaDer: v.engine.attestation.rootCa!.der,
      composeHash: v.engine.attestation.identity.compose_hash,
      nowMs: Date.now(),
    };
    expect(() => checkSettlementKeyEvidence(check)).not.toThrow();
    const other = addressToBase58(ed25519PublicKey(new Uint8Array(32).fill(9)));
    expect(() => checkSettlementKeyEvidence({ ...check, teeKey: other })).toThrow(/another settlement key/);
    expect(() =>
      checkSettlementKeyEvidence({ ...check, evidence: { ...r.body, tee_key: other }, teeKey: other }),
    ).toThrow(/does not bind/);
    expect(() => checkSettlementKeyEvidence({ ...check, nonce: randomBytes(32) })).toThrow(/nonce/);
    expect(() => checkSettlementKeyEvidence({ ...check, composeHash: 'ee'.repeat(32) })).toThrow(/compose/i);
  });

  // Charged before the nonce is parsed: the first test's request and these three empty the bucket of 4.
  it('takes exactly 32 bytes of hex as the nonce, else 400 1001; then the address bucket runs dry', async () => {
    for (const bad of ['', '11'.repeat(31), 'zz'.repeat(32)]) {
      const r = await v.client.send(`/attestation/settlement-key?nonce=${bad}`);
      expect([r.status, r.body.code]).toEqual([400, 1001]);
    }
    const limited = await v.client.send(`/attestation/settlement-key?nonce=${'11'.repeat(32)}`);
    expect([limited.status, limited.body.code]).toEqual([429, 1401]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
