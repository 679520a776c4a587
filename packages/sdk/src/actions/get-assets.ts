import type { Client } from '../client.js';
import { venueAssets } from '../core/assets.js';
import type { Asset } from '../core/utils/asset-registry.js';
import type { NightjarError } from '../core/errors/index.js';

export type { Asset } from '../core/utils/asset-registry.js';

/** No parameters. */
export type GetAssetsParameters = Record<string, never>;
/** Every asset the venue's markets trade, each once. */
export type GetAssetsReturnType = Asset[];

/**
 * Every asset the venue's markets trade (`SOL`, `USDC`, `ETH`), with mint and decimals, from
 * `GET /instruments`. The symbols are the parts of the instruments' symbols (`SOL-USDC`).
 *
 * @example
 * for (const a of await getAssets(client)) console.log(a.symbol, a.mint, a.decimals);
 */
export async function getAssets(
  client: Client,
  _params: GetAssetsParameters = {},
): Promise<GetAssetsReturnType> {
  return venueAssets(client);
}

/** What `getAssets` throws: the SDK's typed errors (a failed read of the instruments). */
export type GetAssetsErrorType = NightjarError;
