import type { VenueSession } from './session.js';
import { knownAsset } from './utils/asset-registry.js';
import { fetchInstruments } from './venue-reads.js';
import { NIGHTJAR_ERROR__PARAMETER, NightjarError } from './errors/index.js';

/** Decimals of `mint`, from the venue's instruments. */
export async function mintDecimals(client: VenueSession, mint: string): Promise<number> {
  const known = knownAsset(mint);
  if (known) return known.decimals;
  for (const i of await fetchInstruments(client)) {
    if (i.base_mint === mint) return i.base_decimals;
    if (i.quote_mint === mint) return i.quote_decimals;
  }
  throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
    detail: `no market of this venue trades mint ${mint}: give the amount as a bigint of atomic units, or an asset getAssets lists`,
  });
}

/** Every mint the venue's markets trade. */
export async function marketMints(client: VenueSession): Promise<string[]> {
  const set = new Set<string>();
  for (const i of await fetchInstruments(client)) {
    set.add(i.base_mint);
    set.add(i.quote_mint);
  }
  return [...set];
}
