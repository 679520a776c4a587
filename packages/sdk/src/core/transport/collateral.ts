/**
 * DCAP collateral the client fetches itself. A venue may serve collateral (it is signed under the
 * pinned root, so it cannot be forged), but it chooses which: it could keep serving an older,
 * still-valid TCB info that predates a downgrade of its platform. A client with its own source
 * (a PCCS, or Intel's PCS) uses that source whenever it is configured, and fails closed when it
 * cannot reach it rather than falling back to the venue's.
 */
import { getCollateral, type Collateral } from '@phala/dcap-qvl';
import { NIGHTJAR_ERROR__ATTESTATION_COLLATERAL, NightjarError } from '../errors/index.js';

/** Fetches the collateral for a quote (the quote's PCK certificate names the platform's FMSPC). */
export type CollateralFetcher = (quote: Uint8Array) => Promise<Collateral>;

/** A fetcher that asks a PCCS (or Intel's PCS: `https://api.trustedservices.intel.com`). */
export function pccsCollateralFetcher(pccsUrl: string | URL): CollateralFetcher {
  const url = String(pccsUrl);
  return (quote) => getCollateral(url, Buffer.from(quote));
}

/** The client's own collateral for `quote`, or undefined when it has no fetcher. */
export async function fetchOwnCollateral(
  fetcher: CollateralFetcher | undefined,
  quote: Uint8Array,
): Promise<Collateral | undefined> {
  if (!fetcher) return undefined;
  try {
    return await fetcher(quote);
  } catch (err) {
    throw new NightjarError(NIGHTJAR_ERROR__ATTESTATION_COLLATERAL, {
      detail: `the DCAP collateral could not be fetched: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}
