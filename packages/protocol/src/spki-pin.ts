/**
 * The pin of a TLS certificate: SHA-256 (hex) of its DER SubjectPublicKeyInfo. The engine's
 * transport attestation binds it to the quote; a ledger client pins the ledger's with it.
 */
import { createHash, type X509Certificate } from 'node:crypto';

export function spkiSha256Of(cert: X509Certificate): string {
  return createHash('sha256')
    .update(cert.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}
