/**
 * A fresh TLS identity for every boot (DESIGN.md section 8): a P-256 key and a self-signed
 * certificate for localhost, made by the ledger package's `generateBootCertificate` (one copy for
 * both servers). Clients authenticate it through transport attestation, which binds `spkiSha256`
 * (SHA-256 of the DER SubjectPublicKeyInfo) to the quote.
 */
export { generateBootCertificate, type BootCertificate } from '@nightjar/ledger';
