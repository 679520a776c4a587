import { instrumentListCodec, type Instrument } from '@nightjar/protocol';
import type { Client } from '../client.js';
import { registerInstrument } from '../utils/asset-registry.js';

/** No parameters. */
export type GetInstrumentsParameters = Record<string, never>;
/** Every market of the venue. */
export type GetInstrumentsReturnType = Instrument[];

/**
 * `GET /instruments`: every market's metadata (mints, decimals, `price_scale`, tick, fee).
 *
 * @example
 * const markets = await getInstruments(client);
 */
export async function getInstruments(
  client: Client,
  _params: GetInstrumentsParameters = {},
): Promise<GetInstrumentsReturnType> {
  const list = await client.request('/instruments', { auth: false, codec: instrumentListCodec });
  for (const i of list) registerInstrument(i);
  return list;
}
