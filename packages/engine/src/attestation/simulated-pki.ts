/**
 * A simulated Intel-style DCAP PKI, generated once and kept in the data directory:
 *
 *   root CA ──┬── PCK platform CA ── PCK certificate (SGX extension: PPID, TCB, PCE ID, FMSPC)
 *             └── TCB signing certificate (signs TCB info and QE identity)
 *
 * plus the quoting enclave's ECDSA attestation key and the platform's TCB values. It is shaped
 * like Intel's so that `@phala/dcap-qvl` verifies its quotes exactly as it verifies real ones,
 * given this root instead of Intel's. It proves the formats and the verifier path, not hardware:
 * whoever holds the data directory can sign anything under this root.
 *
 * Private keys are PKCS#8 PEM files of mode 0600; certificates are PEM, the root also DER
 * (`root-ca.der`, the file ready.json's `platform_root` names and clients pin).
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  webcrypto,
  type KeyObject,
} from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, readSecretFile, writeSecretFile } from '@nightjar/protocol';
import * as x509 from '@peculiar/x509';
import { enumerated, integer, octetString, oid, sequence } from './der.js';

// @peculiar/x509 signs through WebCrypto; Node's implementation is complete for P-256.
x509.cryptoProvider.set(webcrypto as never);

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const SGX_EXTENSION_OID = '1.2.840.113741.1.13.1';
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** The platform's TCB, as the PCK certificate, the quote and the TCB info all state it. */
export interface PlatformTcb {
  fmspc: string; // 6 bytes hex
  pceId: string; // 2 bytes hex
  ppid: string; // 16 bytes hex
  qeId: string; // 16 bytes hex (the quote header's user data)
  /** The 16 SGX TCB component SVNs (the PCK certificate's CPUSVN). */
  sgxComponents: number[];
  pceSvn: number;
  /** The 16 TDX TCB component SVNs (the TD report's TEE_TCB_SVN). */
  tdxComponents: number[];
  qeIsvSvn: number;
}

const NAMES = {
  root: 'CN=Nightjar Simulated SGX Root CA, O=Nightjar (simulated platform - not Intel), L=Nowhere, C=XX',
  pckCa:
    'CN=Nightjar Simulated SGX PCK Platform CA, O=Nightjar (simulated platform - not Intel), L=Nowhere, C=XX',
  pck: 'CN=Nightjar Simulated SGX PCK Certificate, O=Nightjar (simulated platform - not Intel), L=Nowhere, C=XX',
  tcbSigning:
    'CN=Nightjar Simulated SGX TCB Signing, O=Nightjar (simulated platform - not Intel), L=Nowhere, C=XX',
};

interface CertAndKey {
  cert: x509.X509Certificate;
  key: KeyObject;
}

export interface SimulatedPki {
  /** Directory of the files, or undefined when held in memory only (tests). */
  readonly dir: string | undefined;
  readonly rootDerPath: string | undefined;
  readonly root: CertAndKey;
  readonly pckCa: CertAndKey;
  readonly pck: CertAndKey;
  readonly tcbSigning: CertAndKey;
  /** The quoting enclave's attestation key: it signs every quote. */
  readonly attestationKey: KeyObject;
  readonly tcb: PlatformTcb;
  /** DER CRLs issued now by the root CA and the PCK platform CA (nothing revoked). */
  readonly rootCrl: Uint8Array;
  readonly pckCrl: Uint8Array;
}

export function rootDer(pki: SimulatedPki): Uint8Array {
  return new Uint8Array(pki.root.cert.rawData);
}

export function pem(cert: x509.X509Certificate): string {
  return cert.toString('pem') + '\n';
}

/** PEM chain leaf first, as DCAP issuer chains and certification data carry it. */
export function pemChain(...certs: x509.X509Certificate[]): string {
  return certs.map(pem).join('');
}

function defaultTcb(): PlatformTcb {
  return {
    fmspc: randomBytes(6).toString('hex'),
    pceId: '0000',
    ppid: randomBytes(16).toString('hex'),
    qeId: randomBytes(16).toString('hex'),
    sgxComponents: [2, 2, 2, 2, 3, 1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0],
    pceSvn: 13,
    tdxComponents: [5, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    qeIsvSvn: 4,
  };
}

type KeyPair = { privateKey: webcrypto.CryptoKey; publicKey: webcrypto.CryptoKey };

async function cryptoKeys(key: KeyObject): Promise<KeyPair> {
  const privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    key.export({ type: 'pkcs8', format: 'der' }),
    ECDSA,
    true,
    ['sign'],
  );
  const publicKey = await webcrypto.subtle.importKey(
    'spki',
    createPublicKey(key).export({ type: 'spki', format: 'der' }),
    ECDSA,
    true,
    ['verify'],
  );
  return { privateKey, publicKey };
}

function newKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

/** A positive serial number of 16 random bytes, as hex. */
function serial(): string {
  const b = randomBytes(16);
  b[0] = b[0]! & 0x7f || 0x01;
  return b.toString('hex');
}

/** The Intel SGX extension of a PCK certificate (the fields dcap-qvl reads, in Intel's layout). */
function sgxExtension(tcb: PlatformTcb): Uint8Array {
  const item = (id: string, value: Uint8Array) => sequence(oid(id), value);
  const tcbItems = tcb.sgxComponents.map((svn, i) => item(`${SGX_EXTENSION_OID}.2.${i + 1}`, integer(svn)));
  tcbItems.push(item(`${SGX_EXTENSION_OID}.2.17`, integer(tcb.pceSvn)));
  tcbItems.push(item(`${SGX_EXTENSION_OID}.2.18`, octetString(Uint8Array.from(tcb.sgxComponents))));
  return sequence(
    item(`${SGX_EXTENSION_OID}.1`, octetString(Buffer.from(tcb.ppid, 'hex'))),
    item(`${SGX_EXTENSION_OID}.2`, sequence(...tcbItems)),
    item(`${SGX_EXTENSION_OID}.3`, octetString(Buffer.from(tcb.pceId, 'hex'))),
    item(`${SGX_EXTENSION_OID}.4`, octetString(Buffer.from(tcb.fmspc, 'hex'))),
    item(`${SGX_EXTENSION_OID}.5`, enumerated(0)), // SGX type: Standard
  );
}

async function issue(params: {
  subject: string;
  key: KeyObject;
  issuer?: CertAndKey;
  ca: boolean;
  pathLength?: number;
  extra?: x509.Extension[];
}): Promise<x509.X509Certificate> {
  const keys = await cryptoKeys(params.key);
  const issuerKeys = params.issuer ? await cryptoKeys(params.issuer.key) : keys;
  const notBefore = new Date(Date.now() - 24 * 3600 * 1000);
  const notAfter = new Date(Date.now() + (params.ca ? 25 : 10) * YEAR_MS);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(params.ca, params.pathLength, true),
    new x509.KeyUsagesExtension(
      params.ca
        ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
        : x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
      true,
    ),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(issuerKeys.publicKey),
    ...(params.extra ?? []),
  ];
  return x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: params.subject,
    issuer: params.issuer ? params.issuer.cert.subject : params.subject,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: issuerKeys.privateKey,
    signingAlgorithm: ECDSA,
    extensions,
  });
}

async function crl(issuer: CertAndKey): Promise<Uint8Array> {
  const keys = await cryptoKeys(issuer.key);
  const list = await x509.X509CrlGenerator.create({
    issuer: issuer.cert.subject,
    thisUpdate: new Date(),
    nextUpdate: new Date(Date.now() + 30 * 24 * 3600 * 1000),
    entries: [],
    signingKey: keys.privateKey,
    signingAlgorithm: ECDSA,
  });
  return new Uint8Array(list.rawData);
}

const FILES = ['root-ca', 'pck-platform-ca', 'pck', 'tcb-signing'] as const;

/**
 * Loads the PKI from `dir` (`<data dir>/attestation/pki`), creating it on first use; with no
 * directory, a fresh PKI lives in memory for this process only.
 */
export async function loadOrCreateSimulatedPki(dir: string | undefined): Promise<SimulatedPki> {
  if (dir) ensurePrivateDir(dir);
  if (dir && existsSync(join(dir, 'platform.json'))) return loadPki(dir);
  const rootKey = newKey();
  const root = {
    key: rootKey,
    cert: await issue({ subject: NAMES.root, key: rootKey, ca: true, pathLength: 1 }),
  };
  const pckCaKey = newKey();
  const pckCa = {
    key: pckCaKey,
    cert: await issue({ subject: NAMES.pckCa, key: pckCaKey, issuer: root, ca: true, pathLength: 0 }),
  };
  const tcb = defaultTcb();
  const pckKey = newKey();
  const pck = {
    key: pckKey,
    cert: await issue({
      subject: NAMES.pck,
      key: pckKey,
      issuer: pckCa,
      ca: false,
      extra: [new x509.Extension(SGX_EXTENSION_OID, false, sgxExtension(tcb))],
    }),
  };
  const tcbKey = newKey();
  const tcbSigning = {
    key: tcbKey,
    cert: await issue({ subject: NAMES.tcbSigning, key: tcbKey, issuer: root, ca: false }),
  };
  const attestationKey = newKey();

  const made: MadePki = { root, pckCa, pck, tcbSigning, attestationKey, tcb };
  if (dir && !publishPki(dir, made)) return loadPki(dir); // another process made it first: one root
  return assemble(dir, root, pckCa, pck, tcbSigning, attestationKey, tcb);
}

interface MadePki {
  root: CertAndKey;
  pckCa: CertAndKey;
  pck: CertAndKey;
  tcbSigning: CertAndKey;
  attestationKey: KeyObject;
  tcb: PlatformTcb;
}

/**
 * Writes a new PKI beside `dir` and renames it into place in one step, so machines of one venue
 * starting at once on a shared `pkiDir` end with one root: the first rename wins (it replaces the
 * empty directory), a later one finds the directory full and answers false (load that one).
 */
function publishPki(dir: string, made: MadePki): boolean {
  const tmp = `${dir}.new-${process.pid}-${randomBytes(6).toString('hex')}`;
  ensurePrivateDir(tmp);
  [made.root, made.pckCa, made.pck, made.tcbSigning].forEach((ck, i) => {
    writeSecretFile(join(tmp, `${FILES[i]}.pem`), pem(ck.cert));
    writeSecretFile(
      join(tmp, `${FILES[i]}.key.pem`),
      ck.key.export({ type: 'pkcs8', format: 'pem' }) as string,
    );
  });
  writeSecretFile(
    join(tmp, 'attestation-key.pem'),
    made.attestationKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  );
  writeSecretFile(join(tmp, 'root-ca.der'), Buffer.from(made.root.cert.rawData));
  writeSecretFile(join(tmp, 'platform.json'), JSON.stringify(made.tcb, null, 2) + '\n');
  try {
    renameSync(tmp, dir);
    return true;
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && existsSync(join(dir, 'platform.json'))) return false;
    throw new Error(`${dir} holds an incomplete simulated PKI; remove it to make a new one`, { cause: err });
  }
}

/** A private key file of the PKI: ours alone, else refused (see `readSecretFile`). */
function readPrivate(path: string): string {
  const text = readSecretFile(path);
  if (text === undefined) throw new Error(`${path} is missing: the simulated PKI is incomplete`);
  return text;
}

async function loadPki(dir: string): Promise<SimulatedPki> {
  const load = (name: string): CertAndKey => ({
    cert: new x509.X509Certificate(readFileSync(join(dir, `${name}.pem`), 'utf8')),
    key: createPrivateKey(readPrivate(join(dir, `${name}.key.pem`))),
  });
  const [root, pckCa, pck, tcbSigning] = FILES.map(load) as [CertAndKey, CertAndKey, CertAndKey, CertAndKey];
  const attestationKey = createPrivateKey(readPrivate(join(dir, 'attestation-key.pem')));
  const tcb = JSON.parse(readFileSync(join(dir, 'platform.json'), 'utf8')) as PlatformTcb;
  return assemble(dir, root, pckCa, pck, tcbSigning, attestationKey, tcb);
}

async function assemble(
  dir: string | undefined,
  root: CertAndKey,
  pckCa: CertAndKey,
  pck: CertAndKey,
  tcbSigning: CertAndKey,
  attestationKey: KeyObject,
  tcb: PlatformTcb,
): Promise<SimulatedPki> {
  return {
    dir,
    rootDerPath: dir ? join(dir, 'root-ca.der') : undefined,
    root,
    pckCa,
    pck,
    tcbSigning,
    attestationKey,
    tcb,
    rootCrl: await crl(root),
    pckCrl: await crl(pckCa),
  };
}

/** SHA-384 of a label: fixed, recognisable measurements for the simulated firmware. */
export function simulatedMeasurement(label: string): Uint8Array {
  return createHash('sha384').update(`nightjar simulated platform: ${label}`).digest();
}
