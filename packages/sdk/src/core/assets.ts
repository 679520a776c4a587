/** The venue's assets by symbol or mint (from its instruments), for the actions that take an `asset`. */
import type { VenueSession } from './session.js';
import { knownAsset, type Asset } from './utils/asset-registry.js';
import { fetchInstruments } from './venue-reads.js';
import { NIGHTJAR_ERROR__PARAMETER, NightjarError } from './errors/index.js';

/** Every asset the venue's markets trade, each once. */
export async function venueAssets(client: VenueSession): Promise<Asset[]> {
  const mints = new Set<string>();
  for (const i of await fetchInstruments(client)) {
    mints.add(i.base_mint);
    mints.add(i.quote_mint);
  }
  // fetchInstruments registered every one of them.
  return [...mints].map((m) => knownAsset(m)!);
}

/**
 * The asset named by symbol (`"USDC"`, any case) or by mint (Base58). An unknown name throws
 * `PARAMETER` listing the venue's assets.
 *
 * @example
 * const { mint, decimals } = await resolveAsset(client, 'USDC');
 */
export async function resolveAsset(client: VenueSession, symbolOrMint: string): Promise<Asset> {
  const cached = knownAsset(symbolOrMint);
  if (cached) return cached;
  const assets = await venueAssets(client);
  const found = assets.find(
    (a) => a.mint === symbolOrMint || a.symbol.toUpperCase() === symbolOrMint.toUpperCase(),
  );
  if (!found)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `unknown asset ${symbolOrMint}: this venue trades ${assets.map((a) => a.symbol).join(', ')} (give one of them, or its mint)`,
    });
  return found;
}

/**
 * The mint of an action's `asset` (symbol or mint) or `mint` parameter; `what` names the action in
 * the error when neither is given.
 */
export async function assetParameter(
  client: VenueSession,
  params: { asset?: string | undefined; mint?: string | undefined },
  what: string,
): Promise<Asset> {
  const name = params.asset ?? params.mint;
  if (name === undefined)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `${what} needs an asset: give \`asset\` (e.g. 'USDC') or \`mint\``,
    });
  if (params.asset !== undefined && params.mint !== undefined) {
    const a = await resolveAsset(client, params.asset);
    if (a.mint !== params.mint)
      throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
        detail: `asset ${params.asset} is not mint ${params.mint}: give one of \`asset\` and \`mint\``,
      });
    return a;
  }
  return resolveAsset(client, name);
}

/**
 * Makes sure errors about `mint` can name its asset and units: reads the venue's instruments once
 * when no instrument named it yet (a failure to read them only leaves the messages in atomic units).
 */
export async function learnAsset(client: VenueSession, mint: string): Promise<void> {
  if (!knownAsset(mint)) await fetchInstruments(client).catch(() => undefined);
}
