/**
 * Intel DCAP TDX quotes, version 4, byte for byte as Intel's quoting enclave lays them out:
 *
 *   header (48) ‖ TD report body (584) ‖ auth data size u32 ‖ auth data
 *   auth data = quote signature (64, r‖s) ‖ attestation key (64, x‖y) ‖ certification data
 *     type 6 (QE report certification data) = QE report (384) ‖ QE report signature (64)
 *       ‖ QE auth data size u16 ‖ QE auth data ‖ certification data type 5 (PEM PCK chain)
 *
 * The attestation key signs header ‖ body; the PCK key signs the QE report, whose report data
 * starts with SHA-256(attestation key ‖ QE auth data). All integers little-endian.
 */
import { createHash, createPublicKey, sign, type KeyObject } from 'node:crypto';

export const TEE_TYPE_TDX = 0x81;
export const ATTESTATION_KEY_TYPE_ECDSA_P256 = 2;
/** Intel's QE vendor id (a format constant of every Intel DCAP quote). */
export const INTEL_QE_VENDOR_ID = Buffer.from('939a7233f79c4ca9940a0db3957f0607', 'hex');
const CERT_TYPE_PCK_CHAIN = 5;
const CERT_TYPE_QE_REPORT = 6;
export const HEADER_BYTES = 48;
export const TD_REPORT_BYTES = 584;
const ENCLAVE_REPORT_BYTES = 384;

export interface TdReportFields {
  teeTcbSvn: Uint8Array; // 16
  mrSeam: Uint8Array; // 48
  mrSignerSeam: Uint8Array; // 48
  seamAttributes: Uint8Array; // 8
  tdAttributes: Uint8Array; // 8
  xfam: Uint8Array; // 8
  mrTd: Uint8Array; // 48
  mrConfigId: Uint8Array; // 48
  mrOwner: Uint8Array; // 48
  mrOwnerConfig: Uint8Array; // 48
  rtmrs: [Uint8Array, Uint8Array, Uint8Array, Uint8Array]; // 48 each
  reportData: Uint8Array; // 64
}

export interface QeFields {
  cpuSvn: Uint8Array; // 16
  attributes: Uint8Array; // 16
  mrEnclave: Uint8Array; // 32
  mrSigner: Uint8Array; // 32
  isvProdId: number;
  isvSvn: number;
}

export interface QuoteKeys {
  /** Signs header ‖ TD report (the QE's ECDSA attestation key). */
  attestationKey: KeyObject;
  /** Signs the QE report (the PCK certificate's key). */
  pckKey: KeyObject;
  /** PEM PCK chain, leaf first, up to the root. */
  pckChainPem: string;
  /** Header user data: the QE id (16 bytes) then 4 zero bytes. */
  qeId: Uint8Array;
  pceSvn: number;
  qeSvn: number;
}

function fixed(bytes: Uint8Array, width: number, name: string): Uint8Array {
  if (bytes.length !== width) throw new RangeError(`${name} must be ${width} bytes`);
  return bytes;
}

function u16(v: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v, 0);
  return b;
}

function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v, 0);
  return b;
}

function rawSign(key: KeyObject, data: Uint8Array): Buffer {
  return sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
}

/** The uncompressed P-256 point without its 0x04 prefix: x ‖ y. */
export function rawPublicKey(key: KeyObject): Buffer {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return Buffer.concat([Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
}

export function encodeTdReport(r: TdReportFields): Buffer {
  return Buffer.concat([
    fixed(r.teeTcbSvn, 16, 'teeTcbSvn'),
    fixed(r.mrSeam, 48, 'mrSeam'),
    fixed(r.mrSignerSeam, 48, 'mrSignerSeam'),
    fixed(r.seamAttributes, 8, 'seamAttributes'),
    fixed(r.tdAttributes, 8, 'tdAttributes'),
    fixed(r.xfam, 8, 'xfam'),
    fixed(r.mrTd, 48, 'mrTd'),
    fixed(r.mrConfigId, 48, 'mrConfigId'),
    fixed(r.mrOwner, 48, 'mrOwner'),
    fixed(r.mrOwnerConfig, 48, 'mrOwnerConfig'),
    ...r.rtmrs.map((m, i) => fixed(m, 48, `rtmr${i}`)),
    fixed(r.reportData, 64, 'reportData'),
  ]);
}

/** An SGX enclave report (the QE's), 384 bytes. */
export function encodeEnclaveReport(q: QeFields, reportData: Uint8Array): Buffer {
  const out = Buffer.concat([
    fixed(q.cpuSvn, 16, 'cpuSvn'),
    u32(0), // MISCSELECT
    Buffer.alloc(28),
    fixed(q.attributes, 16, 'attributes'),
    fixed(q.mrEnclave, 32, 'mrEnclave'),
    Buffer.alloc(32),
    fixed(q.mrSigner, 32, 'mrSigner'),
    Buffer.alloc(96),
    u16(q.isvProdId),
    u16(q.isvSvn),
    Buffer.alloc(60),
    fixed(reportData, 64, 'reportData'),
  ]);
  if (out.length !== ENCLAVE_REPORT_BYTES) throw new Error('enclave report layout');
  return out;
}

export function buildTdxQuote(report: TdReportFields, qe: QeFields, keys: QuoteKeys): Buffer {
  const header = Buffer.concat([
    u16(4),
    u16(ATTESTATION_KEY_TYPE_ECDSA_P256),
    u32(TEE_TYPE_TDX),
    u16(keys.qeSvn),
    u16(keys.pceSvn),
    INTEL_QE_VENDOR_ID,
    fixed(keys.qeId, 16, 'qeId'),
    Buffer.alloc(4),
  ]);
  const body = encodeTdReport(report);
  const signature = rawSign(keys.attestationKey, Buffer.concat([header, body]));
  const attestationPub = rawPublicKey(keys.attestationKey);

  const qeAuthData = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
  const qeReportData = Buffer.alloc(64);
  createHash('sha256').update(attestationPub).update(qeAuthData).digest().copy(qeReportData, 0);
  const qeReport = encodeEnclaveReport(qe, qeReportData);
  const qeReportSignature = rawSign(keys.pckKey, qeReport);
  // Intel's quoting library ends the PEM chain with a NUL byte.
  const chain = Buffer.concat([Buffer.from(keys.pckChainPem, 'utf8'), Buffer.alloc(1)]);
  const qeCertData = Buffer.concat([
    qeReport,
    qeReportSignature,
    u16(qeAuthData.length),
    qeAuthData,
    u16(CERT_TYPE_PCK_CHAIN),
    u32(chain.length),
    chain,
  ]);
  const authData = Buffer.concat([
    signature,
    attestationPub,
    u16(CERT_TYPE_QE_REPORT),
    u32(qeCertData.length),
    qeCertData,
  ]);
  return Buffer.concat([header, body, u32(authData.length), authData]);
}
