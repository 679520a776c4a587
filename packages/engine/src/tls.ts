/**
 * A fresh TLS identity for every boot (DESIGN.md section 8): a P-256 key and a self-signed
 * certificate for localhost. Clients authenticate it through transport attestation, which binds
 * `spkiSha256` (SHA-256 of the DER SubjectPublicKeyInfo) to the quote.
 */
import { createHash, X509Certificate } from 'node:crypto';
import selfsigned from 'selfsigned';

export interface BootCertificate {
  keyPem: string;
  certPem: string;
  spkiSha256: string;
}

export async function generateBootCertificate(
  hosts: string[] = ['localhost', '127.0.0.1'],
): Promise<BootCertificate> {
  const altNames = hosts.map((h) =>
    /^[\d.]+$/.test(h) ? { type: 7 as const, ip: h } : { type: 2 as const, value: h },
  );
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'nightjar-engine' }], {
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate: new Date(Date.now() + 7 * 24 * 3600 * 1000),
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  const cert = new X509Certificate(pems.cert);
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  return {
    keyPem: pems.private,
    certPem: pems.cert,
    spkiSha256: createHash('sha256').update(spki).digest('hex'),
  };
}
