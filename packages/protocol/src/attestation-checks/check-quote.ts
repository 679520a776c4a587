/**
 * Check (a) on a quote: it carries the verifier's nonce, its certificate chains end at the pinned
 * root, `@phala/dcap-qvl` verifies it with its collateral (the same code a verifier of a real CVM
 * runs; only the root differs), and the TCB status is `UpToDate`. A client runs it on an engine's
 * quote, an engine on a prover worker's.
 */
import { X509Certificate } from 'node:crypto';
import { Quote, QuoteVerifier, type Collateral, type TDReport10 } from '@phala/dcap-qvl';
import { AttestationCheckError } from './check-error.js';

export interface CheckQuoteParameters {
  quote: Uint8Array;
  /** The evidence's `report_data` field (hex). */
  reportDataHex: string;
  nonce: Uint8Array;
  /** DCAP collateral: as the simulated platform serves it, or as fetched from a PCCS. */
  collateral: Collateral | undefined;
  /** The pinned platform root CA certificate, DER. */
  rootCaDer: Uint8Array;
  nowMs: number;
}

export interface CheckQuoteReturnType {
  td: TDReport10;
  tcbStatus: 'UpToDate';
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function pemCerts(text: string): X509Certificate[] {
  return (text.match(PEM) ?? []).map((p) => new X509Certificate(p));
}

/** The topmost certificate of a chain must be the pinned root or be signed by its key. */
function checkChainRoot(chain: X509Certificate[], root: X509Certificate, what: string): void {
  const top = chain.at(-1);
  if (!top) throw new AttestationCheckError('root', `${what}: no certificate chain`);
  if (top.raw.equals(root.raw)) return;
  if (top.checkIssued(root) && top.verify(root.publicKey)) return;
  throw new AttestationCheckError('root', `${what}: the chain does not end at the pinned root`);
}

export type CheckQuoteNonceParameters = Pick<CheckQuoteParameters, 'quote' | 'reportDataHex' | 'nonce'>;

/**
 * The cheap first part of (a): the quote parses as a TDX quote and carries the verifier's nonce.
 * Run before anything costs a round trip (a collateral fetch) or a signature check.
 */
export function checkQuoteNonce(params: CheckQuoteNonceParameters): { parsed: Quote; td: TDReport10 } {
  let parsed: Quote;
  let td: TDReport10 | null;
  try {
    parsed = Quote.parse(Buffer.from(params.quote));
    td = parsed.report.asTd10();
  } catch (err) {
    throw new AttestationCheckError('quote', `the quote does not parse: ${(err as Error).message}`);
  }
  if (!td) throw new AttestationCheckError('quote', 'the quote is not a TDX quote');

  // Evidence for anyone else's nonce proves nothing about this connection.
  const reportData = Buffer.from(td.reportData);
  if (
    !reportData.subarray(0, 32).equals(Buffer.from(params.nonce)) ||
    params.reportDataHex.toLowerCase() !== reportData.toString('hex')
  )
    throw new AttestationCheckError('nonce', 'the quote does not carry the nonce this verifier sent');
  return { parsed, td };
}

function pinnedRoot(rootCaDer: Uint8Array): X509Certificate {
  try {
    return new X509Certificate(Buffer.from(rootCaDer));
  } catch {
    throw new AttestationCheckError('root', 'the pinned root is not a certificate');
  }
}

/** dcap-qvl's verdict: the TCB status, or a refusal naming why. */
function verifiedStatus(params: CheckQuoteParameters, collateral: Collateral): string {
  try {
    const verifier = QuoteVerifier.newWithRootCa(Buffer.from(params.rootCaDer));
    return String(verifier.verify(Buffer.from(params.quote), collateral, params.nowMs / 1000).status);
  } catch (err) {
    const message = (err as Error).message;
    const invalidStatus = /^TCB status is invalid: (.*)$/.exec(message);
    if (invalidStatus)
      throw new AttestationCheckError('tcb', `TCB status ${invalidStatus[1]!}`, {
        tcbStatus: invalidStatus[1]!,
      });
    throw new AttestationCheckError('quote', `the quote does not verify: ${message}`);
  }
}

export function checkQuote(params: CheckQuoteParameters): CheckQuoteReturnType {
  const { parsed, td } = checkQuoteNonce(params);
  if (!params.collateral)
    throw new AttestationCheckError('quote', 'no DCAP collateral to verify the quote with');
  const root = pinnedRoot(params.rootCaDer);
  // The PCK chain inside the quote (certification data type 5, inside type 6 for v4 quotes).
  const certData = Buffer.from(parsed.authData.intoV3().certificationData.body).toString('latin1');
  checkChainRoot(pemCerts(certData), root, 'PCK chain');
  checkChainRoot(pemCerts(String(params.collateral.tcb_info_issuer_chain)), root, 'TCB info chain');
  checkChainRoot(pemCerts(String(params.collateral.qe_identity_issuer_chain)), root, 'QE identity chain');
  const status = verifiedStatus(params, params.collateral);
  if (status !== 'UpToDate')
    throw new AttestationCheckError('tcb', `TCB status ${status}`, { tcbStatus: status });
  return { td, tcbStatus: 'UpToDate' };
}
