/**
 * Self-signed TLS identities: a P-256 key and a certificate for the names a server answers,
 * identified by `spkiSha256` (SHA-256 of the DER SubjectPublicKeyInfo), which clients pin. No CA
 * vouches for them: the engine's is new at each boot and bound to its attestation (DESIGN.md
 * section 8); the ledger's is kept in its data directory so that its pin survives a restart.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { ensurePrivateDir, readSecretFile, spkiSha256Of, writeSecretFile } from '@nightjar/protocol';
import selfsigned from 'selfsigned';

export interface BootCertificate {
  keyPem: string;
  certPem: string;
  spkiSha256: string;
}

export interface CertificateOptions {
  /** The certificate's common name (default `nightjar-engine`). */
  commonName?: string;
  /** How long it is valid (default 7 days: the engine's boot certificate). */
  validDays?: number;
}

const DAY_MS = 24 * 3600 * 1000;

/** The pin clients check (one definition, in @nightjar/protocol). */
export { spkiSha256Of };

/** A fresh P-256 key and a self-signed server certificate for `hosts` (names or IPv4 addresses). */
export async function generateBootCertificate(
  hosts: string[] = ['localhost', '127.0.0.1'],
  options: CertificateOptions = {},
): Promise<BootCertificate> {
  const altNames = hosts.map((h) =>
    /^[\d.]+$/.test(h) ? { type: 7 as const, ip: h } : { type: 2 as const, value: h },
  );
  const pems = await selfsigned.generate(
    [{ name: 'commonName', value: options.commonName ?? 'nightjar-engine' }],
    {
      keyType: 'ec',
      curve: 'P-256',
      notAfterDate: new Date(Date.now() + (options.validDays ?? 7) * DAY_MS),
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: false },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames },
      ],
    },
  );
  return {
    keyPem: pems.private,
    certPem: pems.cert,
    spkiSha256: spkiSha256Of(new X509Certificate(pems.cert)),
  };
}

/** The file in a ledger's data directory holding its TLS key and certificate (PEM, 0600). */
export const LEDGER_TLS_FILE = 'tls-identity.pem';
/** A year: a ledger's pin lives as long as its certificate. */
export const LEDGER_CERT_VALID_DAYS = 365;
/** A certificate this close to its end is replaced at start rather than left to expire while serving. */
const RENEW_BEFORE_MS = DAY_MS;

const pemBlock = (pem: string) => pem.replace(/\r\n/g, '\n').trimEnd() + '\n';
const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----\n?/g;

/** Key and certificate from the identity file; undefined when unusable (then a new one is made). */
function parseIdentity(text: string, nowMs: number): BootCertificate | undefined {
  let keyPem: string | undefined;
  let certPem: string | undefined;
  for (const match of text.matchAll(PEM_BLOCK)) {
    if (match[1] === 'CERTIFICATE') certPem = pemBlock(match[0]);
    else if (match[1]?.endsWith('PRIVATE KEY')) keyPem = pemBlock(match[0]);
  }
  if (keyPem === undefined || certPem === undefined) return undefined;
  try {
    const cert = new X509Certificate(certPem);
    if (nowMs + RENEW_BEFORE_MS > Date.parse(cert.validTo) || nowMs < Date.parse(cert.validFrom))
      return undefined;
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return undefined;
    return { keyPem, certPem, spkiSha256: spkiSha256Of(cert) };
  } catch {
    return undefined;
  }
}

/**
 * The ledger's TLS identity in `dataDir` (a private directory, 0700): the one kept there when it
 * is whole and valid for at least another day, else a new one (valid a year) written over it
 * (0600). A restart keeps the pin; only a missing, damaged or expiring identity changes it.
 * `hosts`: the names the certificate is issued for (a pin does not depend on them).
 */
export async function loadOrCreateLedgerIdentity(
  dataDir: string,
  hosts: string[] = ['localhost', '127.0.0.1'],
  nowMs = Date.now(),
): Promise<BootCertificate> {
  ensurePrivateDir(dataDir);
  const path = join(dataDir, LEDGER_TLS_FILE);
  const text = readSecretFile(path);
  const kept = text === undefined ? undefined : parseIdentity(text, nowMs);
  if (kept) return kept;
  const made = await generateBootCertificate(hosts, {
    commonName: 'nightjar-ledger',
    validDays: LEDGER_CERT_VALID_DAYS,
  });
  // As the file will give them back after a restart: each PEM block ending in one newline.
  const fresh = { ...made, keyPem: pemBlock(made.keyPem), certPem: pemBlock(made.certPem) };
  writeSecretFile(path, fresh.keyPem + fresh.certPem);
  return fresh;
}
