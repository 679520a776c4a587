/**
 * Check (a): the quote carries the nonce this client sent, its certificate chains end at the
 * pinned root, `@phala/dcap-qvl` verifies it with its collateral, and the TCB status is
 * `UpToDate`. The check itself lives in `@nightjar/protocol/attestation-checks` (the engine runs
 * the same one on its prover workers); here its refusals become the client's error codes.
 */
import type { Quote, TDReport10 } from '@phala/dcap-qvl';
import * as shared from '@nightjar/protocol/attestation-checks';
import { asClientCheck } from './check-failure.js';

export type CheckQuoteParameters = shared.CheckQuoteParameters;
export type CheckQuoteReturnType = shared.CheckQuoteReturnType;
export type CheckQuoteNonceParameters = shared.CheckQuoteNonceParameters;

/**
 * The cheap first part of (a): the quote parses as a TDX quote and carries this client's nonce.
 * Run before anything costs a round trip (a collateral fetch) or a signature check.
 */
export function checkQuoteNonce(params: CheckQuoteNonceParameters): { parsed: Quote; td: TDReport10 } {
  return asClientCheck(() => shared.checkQuoteNonce(params));
}

export function checkQuote(params: CheckQuoteParameters): CheckQuoteReturnType {
  return asClientCheck(() => shared.checkQuote(params));
}
