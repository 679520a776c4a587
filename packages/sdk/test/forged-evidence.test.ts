/**
 * Each check of rule 15 fails on its own, with its own typed error: genuine evidence is fetched
 * from a real engine over a pinned socket, then forged one way at a time. Forged quotes and
 * collateral are signed with keys a forger could hold (another simulated PKI) or, for the TCB
 * case, by the simulated root's own signing key saying "OutOfDate".
 */
import { randomBytes } from 'node:crypto';
import dcap from '@phala/dcap-qvl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressToBase58,
  COMPOSE_HASH_EVENT,
  RUNTIME_EVENT_TYPE,
  runtimeEventDigest,
  type TransportAttestationResponse,
} from '@nightjar/protocol';
import { buildCollateral, SimulatedPlatform } from '../../engine/src/index.js';
import {
  checkIdentity,
  checkTransportEvidence,
  fetchTransportEvidence,
  openPinnedSocket,
  type CheckTransportEvidenceParameters,
  type PinnedSocket,
} from '../src/index.js';
import { pins, startTestVenue, type TestVenue } from './helpers.js';
import type { NightjarError } from '../src/index.js';
import {
  NIGHTJAR_ERROR__ATTESTATION_BOOT_SESSION,
  NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH,
  NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG,
  NIGHTJAR_ERROR__ATTESTATION_MANIFEST,
  NIGHTJAR_ERROR__ATTESTATION_NONCE,
  NIGHTJAR_ERROR__ATTESTATION_QUOTE,
  NIGHTJAR_ERROR__ATTESTATION_ROOT,
  NIGHTJAR_ERROR__ATTESTATION_SIGNER_SET,
  NIGHTJAR_ERROR__ATTESTATION_SPKI,
  NIGHTJAR_ERROR__ATTESTATION_TCB,
  NIGHTJAR_ERROR__TRANSPORT_NOT_VERIFIED,
  TRANSPORT_CHECK,
  isNightjarError,
  type TransportErrorCode,
} from '../src/index.js';

describe('forged transport evidence', () => {
  let v: TestVenue;
  let socket: PinnedSocket;
  let nonce: Uint8Array;
  let genuine: TransportAttestationResponse;
  let base: CheckTransportEvidenceParameters;

  beforeAll(async () => {
    v = await startTestVenue();
    socket = await openPinnedSocket({ url: v.engine.url });
    nonce = randomBytes(32);
    genuine = await fetchTransportEvidence({ socket, nonce });
    base = {
      evidence: genuine,
      nonce,
      socketSpkiSha256: socket.spkiSha256,
      rootCaDer: pins(v).rootCaDer,
      composeHash: pins(v).composeHash,
    };
  });
  afterAll(async () => {
    socket.close();
    await v.close();
  });

  const forged = (edit: (e: TransportAttestationResponse) => void): TransportAttestationResponse => {
    const copy = structuredClone(genuine);
    edit(copy);
    return copy;
  };

  type Transport = NightjarError<TransportErrorCode>;

  function failure(params: Partial<CheckTransportEvidenceParameters>): Transport {
    try {
      checkTransportEvidence({ ...base, ...params });
    } catch (err) {
      return err as Transport;
    }
    throw new Error('the forgery passed');
  }

  it('genuine evidence passes (a) to (d), and the unverified socket refuses to carry a request', async () => {
    const checked = checkTransportEvidence(base);
    expect(checked.tcbStatus).toBe('UpToDate');
    expect(checked.manifest.boot_session_id).toBe(v.engine.bootSessionId);
    const identity = await checkIdentity({
      manifest: checked.manifest,
      infoBootSessionId: v.engine.bootSessionId,
      ledger: v.ledger,
    });
    expect(identity.signerSetSha256).toBe(checked.manifest.signer_set_sha256);
    const refused = await socket.request('/info', { token: 'secret' }).catch((e: unknown) => e);
    expect(isNightjarError(refused, NIGHTJAR_ERROR__TRANSPORT_NOT_VERIFIED)).toBe(true);
  });

  it('(a) a stale or foreign nonce', () => {
    const stale = failure({ nonce: randomBytes(32) });
    expect(isNightjarError(stale, NIGHTJAR_ERROR__ATTESTATION_NONCE)).toBe(true);
    expect([stale.codeName, TRANSPORT_CHECK[stale.code]]).toEqual(['ATTESTATION_NONCE', 'a']);
    // The report_data field rewritten to the new nonce does not help: the quote still says the old one.
    const other = randomBytes(32);
    const rewritten = failure({
      nonce: other,
      evidence: forged((e) => (e.report_data = Buffer.from(other).toString('hex') + e.report_data.slice(64))),
    });
    expect(isNightjarError(rewritten, NIGHTJAR_ERROR__ATTESTATION_NONCE)).toBe(true);
  });

  it('(a) a forged quote signature', () => {
    const err = failure({
      evidence: forged((e) => {
        const q = Buffer.from(e.quote, 'hex');
        q[48 + 584 + 4 + 10]! ^= 0x01; // inside the ECDSA quote signature
        e.quote = q.toString('hex');
      }),
    });
    expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_QUOTE)).toBe(true);
    expect([err.codeName, TRANSPORT_CHECK[err.code]]).toEqual(['ATTESTATION_QUOTE', 'a']);
    // An altered measurement (MRTD) under the genuine signature fails the same way.
    const mrtd = failure({
      evidence: forged((e) => {
        const q = Buffer.from(e.quote, 'hex');
        q[48 + 136]! ^= 0x80;
        e.quote = q.toString('hex');
      }),
    });
    expect(isNightjarError(mrtd, NIGHTJAR_ERROR__ATTESTATION_QUOTE)).toBe(true);
  });

  it('(a) a wrong root: another simulated PKI, and Intel’s real root', async () => {
    const other = await SimulatedPlatform.open({ dir: undefined, composeHash: pins(v).composeHash });
    const err = failure({ rootCaDer: other.rootCa.der });
    expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_ROOT)).toBe(true);
    expect([err.codeName, TRANSPORT_CHECK[err.code]]).toEqual(['ATTESTATION_ROOT', 'a']);
    expect(
      isNightjarError(
        failure({ rootCaDer: dcap.constants.TRUSTED_ROOT_CA_DER }),
        NIGHTJAR_ERROR__ATTESTATION_ROOT,
      ),
    ).toBe(true);
    // A forger's own quote and collateral under its own root, checked against the pinned root.
    const q = await other.quote(Buffer.from(genuine.report_data, 'hex'));
    const own = failure({
      evidence: forged((e) => {
        e.quote = Buffer.from(q.quote).toString('hex');
        e.collateral = q.collateral;
      }),
    });
    expect(isNightjarError(own, NIGHTJAR_ERROR__ATTESTATION_ROOT)).toBe(true);
  });

  it('(a) a TCB status other than UpToDate', () => {
    const platform = v.engine.attestation.platform as SimulatedPlatform;
    for (const status of ['OutOfDate', 'SWHardeningNeeded', 'Revoked'] as const) {
      const err = failure({
        evidence: forged((e) => (e.collateral = buildCollateral(platform.pki, { tcbStatus: status }))),
      });
      expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_TCB)).toBe(true);
      expect([
        err.codeName,
        TRANSPORT_CHECK[err.code],
        (err.context as { tcbStatus: string }).tcbStatus,
      ]).toEqual(['ATTESTATION_TCB', 'a', status]);
    }
  });

  it('(b) manifest bytes that do not reproduce the report data, and a TLS key other than the socket’s', () => {
    const bytes = failure({
      evidence: forged(
        (e) =>
          (e.manifest_bytes = e.manifest_bytes.slice(0, 8) + 'ff'.repeat(32) + e.manifest_bytes.slice(72)),
      ),
    });
    expect(isNightjarError(bytes, NIGHTJAR_ERROR__ATTESTATION_MANIFEST)).toBe(true);
    expect([bytes.codeName, TRANSPORT_CHECK[bytes.code]]).toEqual(['ATTESTATION_MANIFEST', 'b']);
    const shown = failure({ evidence: forged((e) => (e.manifest.boot_session_id = '00'.repeat(32))) });
    expect(isNightjarError(shown, NIGHTJAR_ERROR__ATTESTATION_MANIFEST)).toBe(true);
    const spki = failure({ socketSpkiSha256: 'ab'.repeat(32) });
    expect(isNightjarError(spki, NIGHTJAR_ERROR__ATTESTATION_SPKI)).toBe(true);
    expect([spki.codeName, TRANSPORT_CHECK[spki.code]]).toEqual(['ATTESTATION_SPKI', 'b']);
  });

  const composeIndex = () => genuine.event_log.findIndex((e) => e.event === COMPOSE_HASH_EVENT);

  it('(c) a tampered event log: a payload its digest contradicts, or a log that does not replay', () => {
    const payload = failure({
      evidence: forged((e) => (e.event_log[composeIndex()]!.event_payload = 'ee'.repeat(32))),
    });
    expect(isNightjarError(payload, NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG)).toBe(true);
    expect([
      payload.codeName,
      TRANSPORT_CHECK[payload.code],
      (payload.context as { reason: string }).reason,
    ]).toEqual(['ATTESTATION_EVENT_LOG', 'c', 'digest_mismatch']);
    // Payload and digest changed together agree with each other, but no longer replay to RTMR3.
    const consistent = failure({
      evidence: forged((e) => {
        const entry = e.event_log[composeIndex()]!;
        entry.event_payload = 'ee'.repeat(32);
        entry.digest = Buffer.from(
          runtimeEventDigest(RUNTIME_EVENT_TYPE, entry.event, Buffer.alloc(32, 0xee)),
        ).toString('hex');
      }),
    });
    expect((consistent.context as { reason: string }).reason).toBe('replay_mismatch');
    // A dropped entry does not replay either.
    const dropped = failure({ evidence: forged((e) => e.event_log.splice(composeIndex() + 1, 1)) });
    expect((dropped.context as { reason: string }).reason).toBe('replay_mismatch');
  });

  it('(c) a re-typed event-log entry', () => {
    const err = failure({ evidence: forged((e) => (e.event_log[composeIndex()]!.event_type = 1n)) });
    expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG)).toBe(true);
    expect((err.context as { reason: string }).reason).toBe('retyped_compose_hash');
    // A firmware entry re-typed as a runtime event: its digest is not that of its payload.
    const firmware = failure({
      evidence: forged((e) => (e.event_log[0]!.event_type = BigInt(RUNTIME_EVENT_TYPE))),
    });
    expect(isNightjarError(firmware, NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG)).toBe(true);
  });

  it('(c) two compose-hash events', () => {
    const err = failure({
      evidence: forged((e) => {
        const entry = e.event_log[composeIndex()]!;
        e.event_log.push({ ...entry });
      }),
    });
    expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_EVENT_LOG)).toBe(true);
    expect((err.context as { reason: string }).reason).toBe('compose_hash_count');
  });

  it('(c) a compose hash other than the pinned release', () => {
    const err = failure({ composeHash: 'ab'.repeat(32) });
    expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH)).toBe(true);
    expect([err.codeName, TRANSPORT_CHECK[err.code]]).toEqual(['ATTESTATION_COMPOSE_HASH', 'c']);
  });

  it('(d) a boot session other than /info’s, and a signer set other than the finalized on-chain set', async () => {
    const { manifest } = checkTransportEvidence(base);
    const boot = await checkIdentity({
      manifest,
      infoBootSessionId: 'cd'.repeat(32),
      ledger: v.ledger,
    }).catch((e: Transport) => e);
    expect(isNightjarError(boot, NIGHTJAR_ERROR__ATTESTATION_BOOT_SESSION)).toBe(true);
    expect([(boot as Transport).codeName, TRANSPORT_CHECK[(boot as Transport).code]]).toEqual([
      'ATTESTATION_BOOT_SESSION',
      'd',
    ]);

    const finalized = await v.ledger.getVault({ commitment: 'finalized' });
    const otherSet = {
      getVault: async () => ({ tee_keys: [...finalized.tee_keys, addressToBase58(randomBytes(32))] }),
    };
    const signer = await checkIdentity({
      manifest,
      infoBootSessionId: v.engine.bootSessionId,
      ledger: otherSet,
    }).catch((e: Transport) => e);
    expect(isNightjarError(signer, NIGHTJAR_ERROR__ATTESTATION_SIGNER_SET)).toBe(true);
    expect([(signer as Transport).codeName, TRANSPORT_CHECK[(signer as Transport).code]]).toEqual([
      'ATTESTATION_SIGNER_SET',
      'd',
    ]);
  });
});
