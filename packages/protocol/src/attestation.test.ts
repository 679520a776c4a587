import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  attestationReportData,
  decodeTransportManifest,
  encodeTransportManifest,
  replayRtmr,
  RUNTIME_EVENT_TYPE,
  runtimeEventDigest,
  signerSetSha256,
  transportReportData,
  type TransportManifest,
} from './attestation.js';

const manifest: TransportManifest = {
  protocol_version: 1,
  transport_mode: 1,
  app_id_sha256: '11'.repeat(32),
  instance_id_sha256: '22'.repeat(32),
  boot_session_id: '33'.repeat(32),
  tls_spki_sha256: '44'.repeat(32),
  signer_set_sha256: '55'.repeat(32),
};

describe('transport attestation encodings (DESIGN.md section 8)', () => {
  it('lays the manifest out in 164 bytes and reads it back', () => {
    const bytes = encodeTransportManifest(manifest);
    expect(bytes).toHaveLength(164);
    expect(Buffer.from(bytes.subarray(0, 4)).toString('hex')).toBe('00010100');
    expect(Buffer.from(bytes.subarray(4, 36)).toString('hex')).toBe('11'.repeat(32));
    expect(Buffer.from(bytes.subarray(132, 164)).toString('hex')).toBe('55'.repeat(32));
    expect(decodeTransportManifest(bytes)).toEqual(manifest);
    expect(() => encodeTransportManifest({ ...manifest, boot_session_id: 'ab' })).toThrow(RangeError);
    const reserved = Uint8Array.from(bytes);
    reserved[3] = 1;
    expect(() => decodeTransportManifest(reserved)).toThrow(RangeError);
  });

  it('binds nonce and manifest in the report data', () => {
    const nonce = new Uint8Array(32).fill(9);
    const bytes = encodeTransportManifest(manifest);
    const rd = transportReportData(nonce, bytes);
    expect(rd.subarray(0, 32)).toEqual(nonce);
    const digest = createHash('sha256').update('venue/transport-attestation/v1').update(bytes).digest();
    expect(Buffer.from(rd.subarray(32))).toEqual(digest);
  });

  it('digests runtime events and replays registers as dstack does', () => {
    const payload = Buffer.from('ab'.repeat(32), 'hex');
    const type = Buffer.from([0x01, 0x00, 0x00, 0x08]); // 0x08000001 little-endian
    const expected = createHash('sha384')
      .update(Buffer.concat([type, Buffer.from(':compose-hash:'), payload]))
      .digest();
    expect(Buffer.from(runtimeEventDigest(RUNTIME_EVENT_TYPE, 'compose-hash', payload))).toEqual(expected);
    expect(Buffer.from(replayRtmr([]))).toEqual(Buffer.alloc(48));
    const once = createHash('sha384')
      .update(Buffer.concat([Buffer.alloc(48), expected]))
      .digest();
    expect(Buffer.from(replayRtmr([expected]))).toEqual(once);
  });

  it('hashes the ordered signer set', () => {
    const a = new Uint8Array(32).fill(1);
    const b = new Uint8Array(32).fill(2);
    expect(signerSetSha256([a, b])).toBe(createHash('sha256').update(a).update(b).digest('hex'));
    expect(signerSetSha256([b, a])).not.toBe(signerSetSha256([a, b]));
    expect(signerSetSha256([])).toBe(createHash('sha256').digest('hex'));
  });
});

describe('GET /attestation report data (DESIGN.md section 8)', () => {
  it('is SHA-512("venue/attestation/v1" ‖ caller bytes), never the bytes themselves', () => {
    const caller = transportReportData(new Uint8Array(32).fill(7), encodeTransportManifest(manifest));
    const quoted = attestationReportData(caller);
    expect(Buffer.from(quoted).toString('hex')).toBe(
      createHash('sha512').update('venue/attestation/v1').update(caller).digest('hex'),
    );
    expect(Buffer.from(quoted)).not.toEqual(Buffer.from(caller));
    expect(attestationReportData(new Uint8Array())).toHaveLength(64);
    expect(() => attestationReportData(new Uint8Array(65))).toThrow(RangeError);
  });
});
